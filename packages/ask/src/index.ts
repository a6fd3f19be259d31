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
  type CardOption,
  type CardOutcome,
  type CardProblem,
  type CardQuestion,
  cardQuestions,
  type QuestionAnswer,
  type QuestionCard,
  type QuestionPort,
  type TargetSpace,
} from './card.js';
export { type AskCardOptions, type AskOutcome, askCard } from './desk.js';
export { AskError, type AskErrorCode } from './errors.js';
export { type AskToolsOptions, askTools, createAskTools } from './factory.js';
export { type PermissionApprovalOptions, permissionApproval, permissionCard } from './permission.js';
export type { LineTerminal, TerminalStreams } from './ports/line-source.js';
export { type MemoryCard, type MemoryPort, type MemoryPortOptions, memoryPort } from './ports/memory-port.js';
export { detachedPort, type TerminalPort, terminalPort } from './ports/terminal-port.js';
export { type AskUserAnswer, type AskUserDeps, type AskUserStructured, askUserParameters } from './tools/ask-user.js';
