import type { Diagnostic as LspDiagnostic } from 'vscode-languageserver-protocol';
import type { ResolvedCommand } from '../discovery/binary.js';
import type { ProjectChecker } from '../project-check/checker.js';
import type { InnerProcessSpec } from '../server/inner-process.js';
import type { ServerEvent, ServerLogLine } from '../server/server-events.js';

/** What a configuration hook learns about the server it configures. */
export interface ServerContext {
  /** The server's root: the directory holding the marker. */
  readonly root: string;
  /** The run's working directory. */
  readonly cwd: string;
  readonly binary: ResolvedCommand;
}

/** A fallback that is not on the search path: a package installed next to @agent-tools/lsp. */
export type BundledResolver = () => ResolvedCommand | undefined;

/**
 * Pulls the diagnostics of one open document for its current version, for servers whose own way is better
 * than the generic one (typescript-language-server answers `semanticDiagnosticsSync` at once, while its pushed
 * diagnostics come after a debounce and are not sent at all when nothing changed).
 */
export type DiagnosticsPuller = (request: {
    readonly path: string;
    readonly uri: string;
    readonly execute: (command: string, args: readonly unknown[], timeoutMs: number) => Promise<unknown>;
    readonly timeoutMs: number;
  }) => Promise<readonly LspDiagnostic[]>

/**
 * The files that depend on a file (import it), as the server knows them: absolute paths. A configuration without one
 * falls back to the files of the root that name the module.
 */
export type DependentsFinder = (request: {
  readonly path: string;
  readonly execute: (command: string, args: readonly unknown[], timeoutMs: number) => Promise<unknown>;
  readonly timeoutMs: number;
}) => Promise<readonly string[]>;

/** What a configuration prepares before its server starts for a root: extra arguments, and what to undo after. */
export interface LaunchPreparation {
  readonly args: readonly string[];
  /** Called once the process has exited. */
  cleanup(): void;
}

/**
 * What a server said about a document it did not diagnose: its log and the notifications and requests of its own
 * protocol (`eslint/status`), newest last.
 */
export interface ServerReport {
  readonly root: string;
  /** The document asked about (absolute path). */
  readonly path: string;
  readonly log: readonly ServerLogLine[];
  readonly events: readonly ServerEvent[];
  /**
   * `before`: asked before waiting for the document's diagnostics (a server that already said it cannot work, like a
   * Biome whose configuration does not load, would never publish them: the wait is skipped); `after`: once they came.
   */
  readonly phase: 'before' | 'after';
  /** The server's binary as a model reads it (`node_modules/.bin/biome`). */
  readonly binary?: string;
  /** The root as a model reads it (workspace-relative). */
  readonly rootLabel?: string;
}

/**
 * Why a server could not diagnose a document it was given (`could not load eslint.config.js: …`), read from what it
 * reported; undefined when nothing went wrong.
 */
export type ProblemReader = (report: ServerReport) => string | undefined;

/** What a server's output says when its own binary is run beside it (see {@link IgnoreCheck}). */
export interface BinaryRun {
  readonly stdout: string;
  readonly stderr: string;
  readonly code: number | null;
}

/**
 * Which of some files the project's configuration of the server leaves out (Biome's `files.includes`), for a server
 * that publishes nothing for such a file, so its diagnostics would be awaited until they time out: the ignored ones,
 * as given. `run` runs the server's own binary with other arguments in the root (undefined when it could not run in
 * time). Files asked for at once (a write of many) come in one call; each file is asked once while it and the root's
 * marker files are unchanged.
 */
export type IgnoreCheck = (request: {
  readonly root: string;
  readonly paths: readonly string[];
  readonly run: (args: readonly string[], timeoutMs: number) => Promise<BinaryRun | undefined>;
}) => Promise<ReadonlySet<string>>;

/** One language server: what it handles, how to find it, how to start it. */
export interface ServerConfig {
  /** A short stable id (`typescript`, `pyright`); a harness's configuration with a built-in id replaces it. */
  readonly id: string;
  /** The name used in messages (`typescript-language-server`). */
  readonly name: string;
  /** Human names of the languages, for status (`TypeScript/JavaScript`). */
  readonly languages: string;
  /** File extensions with their LSP language ids: `{ '.ts': 'typescript' }`. */
  readonly extensions: Readonly<Record<string, string>>;
  /** Exact file names with their language ids, for files without an extension: `{ Dockerfile: 'dockerfile' }`. */
  readonly filenames?: Readonly<Record<string, string>>;
  /** Files or folders whose presence marks a project root; the nearest one above a file wins. */
  readonly rootMarkers: readonly string[];
  /** Binary names (or absolute paths) to look for, in order: `['clangd', 'clangd-19', ...]`. */
  readonly binaries: readonly string[];
  /**
   * `primary` (the default): answers navigation (definition, references, hover, rename) and diagnostics for its
   * files; the first primary server that can start for a file is its server. `additional`: adds its diagnostics and
   * code actions to those of the file's primary server (ESLint, Biome), for every file it handles whose root it finds.
   */
  readonly role?: 'primary' | 'additional';
  /**
   * What the server needs in the project besides its binary (ESLint: the project's `eslint` package): a sentence
   * saying what is missing, or undefined when the project has it. A server whose need is not met does not start.
   */
  readonly requires?: (context: { readonly root: string; readonly cwd: string }) => string | undefined;
  /**
   * Programs the server runs for part of its work when it finds them on the search path (bash-language-server:
   * shellcheck, for all of its lint findings); status says whether each was found, and what is missing without it.
   */
  readonly companions?: ReadonlyArray<{ readonly binary: string; readonly gives: string; readonly install: string }>;
  /** Reads why the server did not diagnose a document (a configuration that does not load) from what it reported. */
  readonly problem?: ProblemReader;
  /**
   * Tells the diagnostic by which the server says it left a document out because the project's configuration ignores
   * it (ESLint's "File ignored because of a matching ignore pattern"): not a finding; the answer says the server
   * ignores the file instead of naming it among those that checked it.
   */
  readonly ignoredNotice?: (diagnostic: LspDiagnostic) => boolean;
  /** For a server that says nothing of a file its configuration ignores: asks it (see {@link IgnoreCheck}). */
  readonly ignores?: IgnoreCheck;
  /**
   * What a write of one of its root markers in its root (its configuration) does to a running server: `watch` (the
   * default) tells it as a file watcher would (`workspace/didChangeWatchedFiles`); `restart` stops it, and the next call
   * starts it with the new configuration, for a server that reads it only when it starts (Biome).
   */
  readonly configurationChange?: 'watch' | 'restart';
  /** Arguments after the binary (`['--stdio']`). */
  readonly args: readonly string[];
  /** Fallback when the binary is neither in the project nor on the search path. */
  readonly bundled?: BundledResolver;
  /** `initializationOptions` of the initialize request. */
  readonly initializationOptions?: (context: ServerContext) => unknown;
  /** Answers to `workspace/configuration`, as a tree of sections (`{ python: { analysis: {...} } }`). */
  readonly settings?: (context: ServerContext) => Readonly<Record<string, unknown>>;
  /** Runs before the server starts for a root (clangd: a compilation database for a project that has none). */
  readonly prepareLaunch?: (context: ServerContext) => LaunchPreparation | undefined;
  /** Extra environment variables of the server process. */
  readonly env?: Readonly<Record<string, string>>;
  /** A better way than the generic one to get a document's current diagnostics. */
  readonly pullDiagnostics?: DiagnosticsPuller;
  /**
   * For servers that publish diagnostics without a version: how long a file's diagnostics must stay unchanged
   * after the first publish since a change before they are taken as final (default 200 ms). A versioned publish of
   * the document's version ends the wait at once.
   */
  readonly publishQuietMs?: number;
  /** How to find the files that depend on a written one, so a write reports what it broke in them. */
  readonly dependents?: DependentsFinder;
  /** The project's own checker for whole-project diagnostics (`lsp diagnostics "*"`). */
  readonly projectCheck?: ProjectChecker;
  /**
   * Whether `lsp diagnostics "*"` covers this server's roots (default true). Servers of single documents (JSON, YAML,
   * Dockerfile) have no project to check and would otherwise open every such file of the working directory.
   */
  readonly projectWide?: boolean;
  /**
   * A line the server logs (window/logMessage or showMessage) once it has loaded the project. Requests wait
   * for it, at most `readyTimeoutMs` (default 20 s): answers given before are incomplete (pyright's references
   * miss files it has not enumerated yet).
   */
  readonly readyPattern?: RegExp;
  readonly readyTimeoutMs?: number;
  /**
   * Characters the server counts as line breaks besides LSP's `\r\n`, `\n` and `\r` (tsserver: U+2028 and
   * U+2029). Positions in files containing them are translated both ways, so answers and edits land where LSP says.
   */
  readonly extraLineBreaks?: string;
  /**
   * Whether the server drops a leading byte order mark from files it reads from disk, while keeping it in the text
   * of a document it was sent (tsserver): columns on the first line of such a file are translated.
   */
  readonly stripsBomFromDisk?: boolean;
  /**
   * Whether answers depend on an index the server builds in the background after a file is opened, and the
   * title of the work-done progress it reports meanwhile (clangd: `indexing`, when the root has a compilation
   * database). Until that work has begun and ended, index-based answers are not complete.
   */
  readonly backgroundIndex?: (context: ServerContext) => { readonly title: RegExp } | undefined;
  /**
   * Whether a changed document is sent closed and opened again, rather than changed, when another file of the
   * server changed since it was last sent. clangd builds a changed file first from its previous preamble, with the
   * headers as they were, publishes those diagnostics (errors a changed header no longer has), and publishes again
   * once the preamble is rebuilt; a file opened afresh is built once, from the headers on disk.
   */
  readonly reopenAfterOtherChanges?: boolean;
  /** The most workspace symbols the server returns for one query; a list this long was cut by the server. */
  readonly workspaceSymbolLimit?: number;
  /** How long a request may take before it is reported as hung (default: the supervisor's). */
  readonly requestTimeoutMs?: number;
  /** How long starting and initializing may take (default: the supervisor's). */
  readonly startTimeoutMs?: number;
  /**
   * A process the server runs to do its real work and outlives (tsserver under typescript-language-server). When it
   * is gone the server is treated as crashed: the call that met it is an error, and the server restarts.
   */
  readonly innerProcess?: InnerProcessSpec;
}

/** Checks a configuration once and freezes it, so a bad one fails when the supervisor is created. */
export function defineServer(config: ServerConfig): ServerConfig {
  if (!/^[a-z0-9][a-z0-9_-]*$/i.test(config.id)) throw new TypeError(`[agent-tools/lsp] server id "${config.id}" is not a simple name.`);
  if (config.binaries.length === 0) throw new TypeError(`[agent-tools/lsp] server "${config.id}" names no binary.`);
  if (config.rootMarkers.length === 0) throw new TypeError(`[agent-tools/lsp] server "${config.id}" names no root marker.`);
  const extensions: Record<string, string> = {};
  for (const [ext, language] of Object.entries(config.extensions)) {
    extensions[ext.startsWith('.') ? ext.toLowerCase() : `.${ext.toLowerCase()}`] = language;
  }
  if (Object.keys(extensions).length === 0 && Object.keys(config.filenames ?? {}).length === 0) throw new TypeError(`[agent-tools/lsp] server "${config.id}" handles no extension.`);
  return Object.freeze({ ...config, extensions: Object.freeze(extensions) });
}
