/** How bad a diagnostic is, in LSP's four levels. */
export type DiagnosticSeverity = 'error' | 'warning' | 'information' | 'hint';

/** One problem a checker reported in a file. */
export interface Diagnostic {
  /** Absolute path of the file. */
  readonly file: string;
  /** 1-based line. */
  readonly line: number;
  /** 1-based column, when known. */
  readonly column?: number;
  readonly endLine?: number;
  readonly endColumn?: number;
  readonly severity: DiagnosticSeverity;
  readonly code?: string | number;
  readonly message: string;
  /** Who reported it (`ts`, `Pyright`, `clangd`). */
  readonly source?: string;
}

/**
 * One checker of a file that had not answered within the budget while the others had (ESLint still loading the
 * project's configuration beside tsserver): the file is `checked` by the others, and this part comes later.
 */
export interface PendingPart {
  /** Who it is, for the model (`eslint`). */
  readonly name: string;
  /**
   * The sources its diagnostics carry ({@link Diagnostic.source}; default `[name]`): until it answers, the ledger
   * keeps what it reported before, so its old findings are neither forgotten nor reported again as new.
   */
  readonly sources?: readonly string[];
  /** Resolves with its diagnostics of the version just written, or `undefined` when it gave up; never rejects. */
  readonly settled: Promise<readonly Diagnostic[] | undefined>;
  /** The call that gets its diagnostics now, for the model (`call lsp with action "diagnostics" and file "src/a.ts"`). */
  readonly next?: string;
}

/** The outcome of checking one file after a write. */
export type FileCheck =
  /**
   * The checker answered for the version just written; with `pending`, only some of the file's checkers did, and
   * `diagnostics` holds theirs.
   */
  | {
      readonly file: string;
      readonly state: 'checked';
      readonly diagnostics: readonly Diagnostic[];
      readonly pending?: readonly PendingPart[];
    }
  /**
   * The inline budget ran out. `settled` resolves with the diagnostics when they arrive, or `undefined` when
   * the checker gave up; it must never reject.
   */
  | {
      readonly file: string;
      readonly state: 'pending';
      readonly settled: Promise<readonly Diagnostic[] | undefined>;
    }
  /** No checker can look at this file (no server for its language, server not found): say why. */
  | { readonly file: string; readonly state: 'unchecked'; readonly reason: string };

/** Options of a diagnostics request. */
export interface CheckOptions {
  /** How long the caller waits inline before the source answers `pending`. */
  readonly budgetMs: number;
  readonly signal: AbortSignal;
}

/**
 * Where diagnostics of written files come from; `@agent-tools/lsp` implements it.
 *
 * `check` is called after the files are on disk: it syncs them to the checker (open or change with a new
 * version, save, watched-file events for created files) and waits for the diagnostics of that version.
 */
export interface DiagnosticsSource {
  check(files: readonly string[], options: CheckOptions): Promise<readonly FileCheck[]>;
  /**
   * Optional: the diagnostics of existing files before their first write in the run, so problems that were
   * already there are not reported as introduced by the write.
   */
  baseline?(files: readonly string[], options: CheckOptions): Promise<readonly FileCheck[]>;
  /**
   * Optional: the files that depend on the given ones (import them), most relevant first. After a write their
   * diagnostics are checked too, within a budget of their own, so a changed signature's broken callers are reported.
   */
  dependents?(files: readonly string[], options: CheckOptions & { readonly max: number }): Promise<Dependents>;
}

/** The files depending on written ones, as a {@link DiagnosticsSource} found them. */
export interface Dependents {
  /** Up to `max` of them, absolute paths, most relevant first. */
  readonly files: readonly string[];
  /** How many there are in all (more than `files.length` when the list was cut). */
  readonly total: number;
  /** How they were found, for the model (`files that import it (tsserver)`). */
  readonly how: string;
}
