/**
 * @agent-tools/ask: the question port and the ask_user tool. Questions and permission requests render as one kind
 * of card, shown one at a time per port.
 */
export {
  type Assumption,
  type AssumptionFilter,
  assumptionsOf,
  clearAssumptions,
  type UnansweredReason,
} from './assumptions.js';
export {
  type AskOptions,
  CARD_LIMITS,
  type CardOption,
  type CardOutcome,
  type CardProblem,
  type CardQuestion,
  cardProblems,
  cardQuestions,
  checkCard,
  type QuestionAnswer,
  type QuestionCard,
  type QuestionPort,
  questionProblems,
  type TargetSpace,
} from './card.js';
export { type AskCardOptions, type AskOutcome, askCard, isTimeout } from './desk.js';
export { AskError, type AskErrorCode } from './errors.js';
export { type AskToolsOptions, askTools, createAskTools, DEFAULT_QUESTION_TIMEOUT_MS } from './factory.js';
export { checkOutcome } from './outcome-check.js';
export {
  PERMISSION_LABELS,
  type PermissionApprovalOptions,
  permissionApproval,
  permissionCard,
} from './permission.js';
export type { LineTerminal, TerminalStreams } from './ports/line-source.js';
export { type MemoryCard, type MemoryPort, type MemoryPortOptions, memoryPort } from './ports/memory-port.js';
export { parseLine, renderCard } from './ports/render.js';
export { detachedPort, type TerminalPort, terminalPort } from './ports/terminal-port.js';
export {
  type AskUserAnswer,
  type AskUserDeps,
  type AskUserParameters,
  type AskUserStructured,
  askUserParameters,
  askUserTool,
} from './tools/ask-user.js';
export { PROCEED_ON_ASSUMPTION, PROCEED_ON_ASSUMPTIONS } from './wording.js';
