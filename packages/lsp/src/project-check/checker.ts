import type { Diagnostic } from '@agent-tools/core';
import type { ResolvedCommand } from '../discovery/binary.js';

/** What a checker learns about the project it checks. */
export interface CheckerContext {
  /** The project root (the directory holding the server's marker). */
  readonly root: string;
  readonly cwd: string;
  /** The search path for binaries. */
  readonly path: string | undefined;
}

/** A planned run of a project checker. */
export interface CheckerRun {
  readonly command: ResolvedCommand;
  readonly args: readonly string[];
  /** Where to run it (default: the root). */
  readonly cwd?: string;
  readonly env?: Readonly<Record<string, string>>;
  /** How the run is named for a model: `tsc --noEmit -p tsconfig.json`. */
  readonly title: string;
  /** Further commands run after this one (a second tool of the same check); their outputs arrive in `CheckerOutput.more`. */
  readonly followedBy?: ReadonlyArray<Omit<CheckerRun, 'followedBy'>>;
}

/** A checker's raw output. */
export interface CheckerOutput {
  readonly stdout: string;
  readonly stderr: string;
  readonly code: number | null;
  /** The outputs of the run's `followedBy` commands, in order. */
  readonly more?: readonly CheckerOutput[];
}

/**
 * A language's own whole-project checker (`tsc --noEmit`, `pyright`, `go vet`), used by `lsp diagnostics "*"`
 * when the server cannot report the whole workspace itself.
 */
export interface ProjectChecker {
  /** `tsc`, `pyright`, `go vet`. */
  readonly name: string;
  /** How to run it for a root, or why it cannot run there (no config file, binary not found). */
  plan(context: CheckerContext): CheckerRun | { readonly unavailable: string };
  /**
   * The diagnostics in its output, with absolute file paths; `failed` when the output shows that the check
   * itself did not run (a crash, a bad configuration): such a project is "not verified", never clean;
   * `incomplete` when it ran but could not cover everything: its findings are listed, and it is not verified.
   */
  parse(
    output: CheckerOutput,
    context: CheckerContext,
  ): readonly Diagnostic[] | { readonly failed: string } | { readonly incomplete: string; readonly diagnostics: readonly Diagnostic[] };
  /** How long it may run (default: the supervisor's check timeout). */
  readonly timeoutMs?: number;
}
