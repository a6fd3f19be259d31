import { defineFactory, type ToolFactory } from '@agent-tools/core';
import type { QuestionPort, TargetSpace } from './card.js';
import { askUserTool } from './tools/ask-user.js';

declare module '@agent-tools/core' {
  interface Resources {
    /** Renders question cards to the run's human (see `terminalPort`, `memoryPort`, `detachedPort`). */
    questionPort?: QuestionPort;
    /** Where the run's cards are shown: its conversation, channel or terminal. */
    targetSpace?: TargetSpace;
  }
}

/** Options of {@link createAskTools}. */
export interface AskToolsOptions {
  /** How long a shown question waits for an answer before it times out (default 10 minutes). */
  readonly timeoutMs?: number;
}

/** The default time a shown question waits: long enough for a person to read and decide, short of forever. */
export const DEFAULT_QUESTION_TIMEOUT_MS = 600_000;

/**
 * Builds the factory of @agent-tools/ask with options. It registers `ask_user` (read tier) when the run has both a
 * `questionPort` and a `targetSpace`. A port with no human attached still registers the tool: a call then fails at
 * once (fail-closed) and tells the model to proceed on a stated assumption.
 */
export function createAskTools(options: AskToolsOptions = {}): ToolFactory<'questionPort' | 'targetSpace'> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_QUESTION_TIMEOUT_MS;
  return defineFactory({
    name: '@agent-tools/ask',
    needs: ['questionPort', 'targetSpace'],
    create: ({ questionPort, targetSpace }, run) => {
      // A port's bugs outside any card (its reader's) go to the run's onError.
      const stop = (run && questionPort.onBackgroundError?.(run.reportError)) || (() => undefined);
      return { tools: [askUserTool({ port: questionPort, target: targetSpace, timeoutMs })], dispose: stop };
    },
  });
}

/** The factory of @agent-tools/ask with default options (questions time out after 10 minutes). */
export const askTools = createAskTools();
