import type { QuestionPort, TargetSpace } from '@agent-tools/ask';
import type { AnyToolFactory, Resources, ToolResult } from '@agent-tools/core';

/** Line-based terminal I/O shared by the REPL, approval prompts and question cards. */
export interface Terminal {
  /** Shows `prompt` and reads one line; `undefined` at end of input. */
  readLine(prompt: string): Promise<string | undefined>;
  /** Writes text for the human (prompts and cards go to stderr so stdout stays parseable). */
  write(text: string): void;
}

/** What a plugin learns about the run it provides resources for. */
export interface HarnessEnv {
  readonly cwd: string;
  readonly conversationId: string;
  /** The human's terminal; absent when nobody is attached (then questions fail closed). */
  readonly terminal: Terminal | undefined;
  /** Where questions go instead of the terminal (an MCP client's elicitation), when the run has such a channel. */
  readonly questions?: { readonly port: QuestionPort; readonly target: TargetSpace };
}

/** A demo step that has run, and what it answered. */
export interface DemoOutcome {
  readonly step: DemoStep;
  readonly result: ToolResult;
}

/** One call of the demo: what it shows, and the call. */
export interface DemoStep {
  readonly title: string;
  readonly tool: string;
  /** The arguments, or a function of the earlier steps' outcomes (for ids an earlier answer handed out). */
  readonly args: unknown | ((earlier: readonly DemoOutcome[]) => unknown);
  readonly surface?: string;
  /** The step shows a refusal or a reported problem: an error result is its success. */
  readonly expectError?: boolean;
}

/**
 * How the harness wires one package: its factory, the resources it can find on this machine for the working
 * directory, and the calls the demo makes to show it. Resources must be cheap to create; processes start
 * lazily on first use.
 */
export interface HarnessPlugin {
  readonly factory: AnyToolFactory;
  resources(env: HarnessEnv): Partial<Resources> | Promise<Partial<Resources>>;
  readonly demo?: readonly DemoStep[];
  /**
   * Why the demo steps cannot run on this machine (a system component the set-up command does not install is
   * missing), or `undefined` when they can. The demo then says so instead of failing.
   */
  demoBlocker?(env: HarnessEnv): string | undefined | Promise<string | undefined>;
}
