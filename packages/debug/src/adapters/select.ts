import { closeSync, constants, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { dirname, extname, join } from 'node:path';
import { displayPath, readRegularFileSync } from '@agent-tools/core';
import { findRoot } from '@agent-tools/core/internal';
import { DebugError } from '../errors.js';
import type { AdapterConfig, LocateResult } from './adapter.js';
import { markersBelow } from './roots.js';

/** What `adapters` says about one adapter. */
export interface AdapterReport {
  readonly id: string;
  readonly languages: string;
  /** What it launches: extensions, native executables, folders. */
  readonly launches: string;
  readonly usable: boolean;
  /** The command that would run, when the binary was found. */
  readonly command?: string;
  /** Why it is not usable, or where its markers are: one short sentence each. */
  readonly notes: readonly string[];
}

/** The adapter chosen for a launch or an attach, with its root and command. */
export interface SelectedAdapter {
  readonly config: AdapterConfig;
  readonly root: string;
  readonly located: Extract<LocateResult, { found: true }>;
}

/** What selection reads besides the adapters. */
export interface SelectionContext {
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly signal?: AbortSignal;
}

/** Native source files: lldb debugs what they compile to, so naming one gets a build hint. */
const NATIVE_SOURCES = new Set(['.c', '.cc', '.cpp', '.cxx', '.c++', '.m', '.mm', '.rs', '.swift', '.zig']);

/** Describes every adapter: usable when a root marker is found and its binary is found (both, never a guess). */
export async function describeAdapters(adapters: readonly AdapterConfig[], ctx: SelectionContext): Promise<AdapterReport[]> {
  return Promise.all(adapters.map((config) => describeAdapter(config, ctx)));
}

async function describeAdapter(config: AdapterConfig, ctx: SelectionContext): Promise<AdapterReport> {
  const notes: string[] = [];
  const atRoot = findRoot(config.rootMarkers, ctx.cwd, ctx.cwd);
  const below = atRoot ? [] : markersBelow(config.rootMarkers, ctx.cwd);
  const markerNames = config.rootMarkers.join(', ');
  if (atRoot) notes.push(`root marker ${atRoot.marker} in the working directory`);
  else if (below.length > 0) notes.push(`root marker found at ${below.join(', ')}: programs there can be launched`);
  else if (config.markerOptional) notes.push(`no ${markerNames} in the working directory: programs run in the working directory`);
  else notes.push(`marker missing: no ${markerNames} in the working directory or the two levels below it`);
  const rootDir = atRoot?.dir ?? (below[0] ? dirname(`${ctx.cwd}/${below[0]}`) : ctx.cwd);
  const located = await config.locate({ root: rootDir, cwd: ctx.cwd, env: ctx.env, ...(ctx.signal ? { signal: ctx.signal } : {}) });
  if (!located.found) notes.push(`binary missing: ${clause(located.reason)}`);
  return {
    id: config.id,
    languages: config.languages,
    launches: launchesText(config),
    usable: located.found && (atRoot !== undefined || below.length > 0 || config.markerOptional === true),
    ...(located.found ? { command: located.programNote ? `${located.summary}; ${located.programNote}` : located.summary } : {}),
    notes,
  };
}

/**
 * Chooses the adapter for `program`: the explicit `adapterId` when given, otherwise by the program's file
 * type, and in both cases only when the binary is found. Without an explicit adapter a root marker between
 * the program's folder and the working directory is required too; an explicit adapter is the model's
 * informed choice and runs from the nearest marker or the working directory.
 */
export async function selectForLaunch(
  adapters: readonly AdapterConfig[],
  program: string,
  ctx: SelectionContext,
  adapterId?: string,
): Promise<SelectedAdapter> {
  const kind = programKind(program);
  const from = kind === 'folder' ? program : dirname(program);
  const shown = displayPath(program, ctx.cwd);
  if (adapterId !== undefined) {
    const config = byId(adapters, adapterId);
    const advice = kind === 'folder' ? folderAdvice(program, shown) : undefined;
    if (advice) throw new DebugError('invalid_argument', advice);
    const mismatch = wrongAdapter(adapters, config, program, shown, kind);
    if (mismatch) throw new DebugError('invalid_argument', mismatch);
    const root = findRoot(config.rootMarkers, from, ctx.cwd)?.dir ?? ctx.cwd;
    const located = await locateOrThrow(config, root, ctx);
    checkProgram(config, program, root, shown);
    return { config, root, located };
  }

  const candidates = adapters.filter((a) =>
    kind === 'folder' ? a.folders : kind === 'executable' ? a.executables : a.extensions.includes(extname(program).toLowerCase()),
  );
  if (candidates.length === 0) throw new DebugError('no_adapter', noAdapterText(adapters, program, shown, kind));
  const advice = kind === 'folder' ? folderAdvice(program, shown) : undefined;
  if (advice) throw new DebugError('invalid_argument', advice);

  const reasons: string[] = [];
  for (const config of candidates) {
    const root = findRoot(config.rootMarkers, from, ctx.cwd) ?? (config.markerOptional ? { dir: ctx.cwd } : undefined);
    if (!root) {
      reasons.push(
        `${config.id}: marker missing: no ${config.rootMarkers.join(', ')} between ${displayPath(from, ctx.cwd)} and the working directory (pass adapter: "${config.id}" to launch it anyway)`,
      );
      continue;
    }
    const located = await config.locate({ root: root.dir, cwd: ctx.cwd, env: ctx.env, ...(ctx.signal ? { signal: ctx.signal } : {}) });
    if (located.found) {
      checkProgram(config, program, root.dir, shown);
      return { config, root: root.dir, located };
    }
    reasons.push(`${config.id}: binary missing: ${clause(located.reason)}`);
  }
  throw new DebugError('adapter_unusable', `No debug adapter can launch ${shown} here. ${reasons.join('. ')}.`);
}

/**
 * Chooses the adapter for `attach`: the explicit one, or the only attach-capable adapter whose marker is in
 * the working directory and whose binary is found.
 */
export async function selectForAttach(adapters: readonly AdapterConfig[], ctx: SelectionContext, adapterId?: string): Promise<SelectedAdapter> {
  if (adapterId !== undefined) {
    const config = byId(adapters, adapterId);
    if (!config.attach) throw new DebugError('invalid_argument', `The ${config.id} adapter cannot attach to a port. Adapters that can: ${attachable(adapters)}.`);
    const root = findRoot(config.rootMarkers, ctx.cwd, ctx.cwd)?.dir ?? ctx.cwd;
    return { config, root, located: await locateOrThrow(config, root, ctx) };
  }
  const usable: SelectedAdapter[] = [];
  const unmarked: AdapterConfig[] = [];
  for (const config of adapters.filter((a) => a.attach)) {
    const root = findRoot(config.rootMarkers, ctx.cwd, ctx.cwd);
    if (!root) {
      if (config.markerOptional) unmarked.push(config);
      continue;
    }
    const located = await config.locate({ root: root.dir, cwd: ctx.cwd, env: ctx.env, ...(ctx.signal ? { signal: ctx.signal } : {}) });
    if (located.found) usable.push({ config, root: root.dir, located });
  }
  // An adapter that needs no marker (js) is the choice only when no marked project says otherwise.
  if (usable.length === 0) {
    for (const config of unmarked) {
      const located = await config.locate({ root: ctx.cwd, cwd: ctx.cwd, env: ctx.env, ...(ctx.signal ? { signal: ctx.signal } : {}) });
      if (located.found) usable.push({ config, root: ctx.cwd, located });
    }
  }
  if (usable.length === 1) return usable[0] as SelectedAdapter;
  if (usable.length === 0) {
    throw new DebugError(
      'no_adapter',
      `No adapter for attach has its root marker in the working directory. Pass adapter: one of ${attachable(adapters)} (call adapters to see which are usable).`,
    );
  }
  throw new DebugError(
    'invalid_argument',
    `Several adapters could attach here (${usable.map((u) => u.config.id).join(', ')}); pass adapter to say which one runs the debuggee on that port.`,
  );
}

/** What a program path is: a folder, a native executable, or a file judged by its extension. */
export function programKind(path: string): 'folder' | 'executable' | 'file' {
  try {
    if (statSync(path).isDirectory()) return 'folder';
  } catch {
    // stat raises only file-system errors: taken as a file, which the launch then reports.
    return 'file';
  }
  return isNativeExecutable(path) ? 'executable' : 'file';
}

/** ELF or Mach-O by magic number, so a `prog` without an extension is recognised as compiled code. */
function isNativeExecutable(path: string): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    const magic = Buffer.alloc(4);
    if (readSync(fd, magic, 0, 4, 0) < 4) return false;
    const word = magic.readUInt32BE(0);
    return word === 0x7f454c46 || [0xfeedface, 0xfeedfacf, 0xcefaedfe, 0xcffaedfe, 0xcafebabe].includes(word);
  } catch {
    // A file-system error reading its first bytes: not an executable.
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Refuses a program the adapter cannot run here (a TypeScript file with no runner), before anything starts. */
function checkProgram(config: AdapterConfig, program: string, root: string, shown: string): void {
  const problem = config.launchProblem?.({ program, root });
  if (problem) throw new DebugError('adapter_unusable', `The ${config.id} adapter cannot launch ${shown}: ${clause(problem)}.`);
}

/**
 * Why an explicitly chosen adapter cannot run this program, naming the one that can: lldb given `app.js` would
 * answer "not a valid executable", which sends the model looking for a build problem that does not exist.
 */
function wrongAdapter(adapters: readonly AdapterConfig[], config: AdapterConfig, program: string, shown: string, kind: string): string | undefined {
  const extension = extname(program).toLowerCase();
  const fits = kind === 'folder' ? config.folders : kind === 'executable' ? config.executables || config.extensions.includes(extension) : config.extensions.includes(extension);
  if (fits) return undefined;
  const owners = adapters.filter((a) => (kind === 'folder' ? a.folders : kind === 'executable' ? a.executables : extension !== '' && a.extensions.includes(extension)));
  // An adapter of the harness's own may take anything: refuse only a program another adapter is known to run.
  if (owners.length === 0 && kind === 'file') return undefined;
  if (kind === 'folder') return folderAdvice(program, shown) ?? `The ${config.id} adapter does not launch folders (${shown}); pass the program file.`;
  const by = owners.map((a) => a.id).join(' or ');
  const what = kind === 'executable' ? 'native executables' : `${extension} files`;
  return `The ${config.id} adapter cannot run ${shown}: it launches ${launchesText(config) || 'other programs'}. ${what} are launched by ${by}: leave adapter out, or pass adapter: "${owners[0]?.id}".`;
}

/**
 * What to pass instead of a folder: debugpy runs a script, delve a package with `package main`, js-debug an entry
 * file; said before any adapter is tried, so the model is not told about root markers of the wrong language.
 */
function folderAdvice(folder: string, shown: string): string | undefined {
  const names = safeList(folder);
  const has = (ext: string): boolean => names.some((n) => n.endsWith(ext));
  if (has('.go')) {
    const mains = names.filter((n) => n.endsWith('.go') && !n.endsWith('_test.go') && /^package\s+main\b/m.test(readText(join(folder, n))));
    if (mains.length > 0) return undefined;
    return `delve launches a package with package main, and ${shown} has none: pass the folder that holds main (or a _test.go file to debug the package's tests).`;
  }
  if (has('.py') || names.includes('__init__.py')) {
    const main = names.includes('__main__.py') ? ` (this package has one: ${shown}/__main__.py)` : '';
    return `debugpy launches a .py file, not a folder: pass a script${main}.`;
  }
  if (names.includes('package.json') || [...JS_ENTRY_EXTENSIONS].some(has)) {
    const entry = packageMain(folder);
    return `js-debug launches a .js or .ts file, not a folder: pass the program's entry file${entry ? ` (package.json names ${shown}/${entry})` : ''}.`;
  }
  return undefined;
}

const JS_ENTRY_EXTENSIONS = new Set(['.js', '.mjs', '.cjs', '.ts', '.mts']);

function packageMain(folder: string): string | undefined {
  try {
    const manifest = JSON.parse(readText(join(folder, 'package.json'))) as { main?: unknown; bin?: unknown };
    if (typeof manifest.main === 'string') return manifest.main.replace(/^\.\//, '');
    if (typeof manifest.bin === 'string') return manifest.bin.replace(/^\.\//, '');
    if (manifest.bin && typeof manifest.bin === 'object') {
      const first = Object.values(manifest.bin as Record<string, unknown>)[0];
      if (typeof first === 'string') return first.replace(/^\.\//, '');
    }
  } catch {
    // No manifest, or not JSON.
  }
  return undefined;
}

/** A project file's text, or '' when it cannot be read; a FIFO or device is never opened blocking. */
function readText(path: string): string {
  try {
    return readRegularFileSync(path).toString('utf8');
  } catch {
    // A file-system error or not_regular_file: no text to look at.
    return '';
  }
}

async function locateOrThrow(config: AdapterConfig, root: string, ctx: SelectionContext): Promise<SelectedAdapter['located']> {
  const located = await config.locate({ root, cwd: ctx.cwd, env: ctx.env, ...(ctx.signal ? { signal: ctx.signal } : {}) });
  if (!located.found) throw new DebugError('adapter_unusable', `The ${config.id} adapter cannot start here: binary missing: ${clause(located.reason)}.`);
  return located;
}

function byId(adapters: readonly AdapterConfig[], id: string): AdapterConfig {
  const config = adapters.find((a) => a.id === id);
  if (!config) {
    throw new DebugError('invalid_argument', `There is no adapter "${id}". Known adapters: ${adapters.map((a) => a.id).join(', ')}.`);
  }
  return config;
}

function attachable(adapters: readonly AdapterConfig[]): string {
  return adapters.filter((a) => a.attach).map((a) => a.id).join(', ') || 'none';
}

function launchesText(config: AdapterConfig): string {
  const parts = [...config.extensions.map((e) => `${e} files`)];
  if (config.executables) parts.push('native executables');
  if (config.folders) parts.push('package folders');
  return parts.join(', ');
}

function noAdapterText(adapters: readonly AdapterConfig[], program: string, shown: string, kind: string): string {
  const extension = extname(program).toLowerCase();
  const known = adapters.map((a) => `${a.id} (${launchesText(a)})`).join('; ');
  if (NATIVE_SOURCES.has(extension) && adapters.some((a) => a.executables)) {
    return `${shown} is source code; lldb debugs the compiled executable. Build it with debug information (for C: gcc -g -O0 -o prog ${shown}) and launch the executable.`;
  }
  if (kind === 'folder') {
    const advice = folderAdvice(program, shown);
    if (advice) return advice;
    const goFiles = safeList(program).some((name) => name.endsWith('.go'));
    if (!goFiles) return `${shown} is a folder with no Go files; pass the program file to launch. Adapters: ${known}.`;
  }
  const what = kind === 'executable' ? 'native executables' : extension ? `${extension} files` : 'files without an extension';
  // Naming an adapter that cannot run the file would only trade this error for a stranger one.
  return `No debug adapter launches ${what} (${shown}). The adapters here launch: ${known}.`;
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    // readdir raises only file-system errors: no entries.
    return [];
  }
}

/** An adapter's reason as a clause inside a sentence: some end theirs with a full stop (debugpy's names a fix). */
function clause(reason: string): string {
  return reason.trim().replace(/\.$/, '');
}
