/**
 * @agent-tools/core: the tier model, tool definitions, the registrar, the diagnostics ledger and write wrapping.
 * Resource packages depend on it; it depends on none of them.
 */
export { type ApprovalCallback, type ApprovalDecision, type ApprovalRequest, approveAll } from './approval.js';
export { writeFileAtomic } from './atomic-write.js';
export { type Capped, capList, capText, capTextTail } from './caps.js';
export type {
  CheckOptions,
  Dependents,
  Diagnostic,
  DiagnosticSeverity,
  DiagnosticsSource,
  FileCheck,
  PendingPart,
} from './diagnostics/diagnostic.js';
export { formatDiagnostic } from './diagnostics/format.js';
export { DiagnosticsLedger, type LedgerLimits, ledgerKey } from './diagnostics/ledger.js';
export {
  LATE_DIAGNOSTICS_SOURCE,
  RunDiagnostics,
  type RunDiagnosticsOptions,
  type WriteDiagnostics,
  type WrittenFileReport,
} from './diagnostics/run-diagnostics.js';
export {
  ancestorsUpTo,
  type BinaryLookup,
  type BinarySearch,
  type BinarySource,
  type FoundRoot,
  findBinary,
  findExecutable,
  findRoot,
  IGNORED_DIRS,
  isExecutable,
  PROJECT_BIN_DIRS,
  projectBinDirs,
  type ResolvedCommand,
  searchPath,
} from './discovery.js';
export { disposeValue } from './dispose.js';
export { type ErrorData, toolErrorResult } from './error-result.js';
export {
  AgentToolsError,
  type AgentToolsErrorOptions,
  CoreError,
  type CoreErrorCode,
  errorDetail,
  errorSentence,
  isAgentToolsError,
  messageOf,
} from './errors.js';
export {
  type AnyToolFactory,
  defineFactory,
  type FactoryOutput,
  type FactoryRun,
  isPresent,
  type Resources,
  type ResourcesWith,
  type ToolFactory,
} from './factory.js';
export {
  applyFileChanges,
  type ChangedFile,
  type FileChange,
  type FileChangesOptions,
  type FileChangesOutcome,
} from './file-changes.js';
export { fileLockBusy, fileWritesSettled, outsideFileLocks, withFileLock } from './file-lock.js';
export { afterDelay, MAX_TIMER_MS } from './long-timer.js';
export { type AnthropicInputSchema, type AnthropicTool, toAnthropicTools } from './model-apis/anthropic.js';
export { type GeminiFunctionDeclaration, type GeminiTool, toGeminiTools } from './model-apis/gemini.js';
export {
  type OpenAIChatTool,
  type OpenAIResponsesTool,
  type OpenAIToolOptions,
  toOpenAITools,
} from './model-apis/openai.js';
export { toStrictSchema } from './model-apis/strict-schema.js';
export { type Notice, type NoticeLimits, RunNotices } from './notices.js';
export { onAbort } from './on-abort.js';
export {
  type DisplayPathOptions,
  displayPath,
  isWithin,
  type ResolvedPath,
  type ResolveOptions,
  resolveInside,
} from './paths.js';
export { formatProgress, type ProgressEvent, type ProgressListener, type ToolProgress } from './progress.js';
export { createRegistry, type FactoryStatus, Registry, type RegistryOptions } from './registry.js';
export { notRegularFile, type ReadScratch, readRegularFile, readRegularFileIntoSync, readRegularFileSync, specialFileKind } from './regular-file.js';
export {
  appendText,
  type ContentPart,
  errorResult,
  type ImagePart,
  imagePart,
  resultText,
  type TextPart,
  type ToolResult,
  textResult,
} from './result.js';
export { type JsonSchema, type ToolSchema, toolSchema } from './schema.js';
export {
  admits,
  builtinSurfaces,
  defaultSurface,
  defineSurface,
  planSurface,
  type Surface,
  subagentSurface,
} from './surface.js';
export { collapseCarriageReturns, stripTerminalCodes } from './terminal-text.js';
export { needsApproval, TIERS, type Tier } from './tier.js';
export {
  type AnyToolDefinition,
  type CallOptions,
  defineTool,
  type ToolCaller,
  type ToolContext,
  type ToolDefinition,
} from './tool.js';
export { wellFormedResult, wellFormedText } from './well-formed.js';
export { countOfTotal, formatDuration, nounFor, plural, shownNote } from './wording.js';
export { type WithDiagnostics, type WrapWriteOptions, wrapWrite } from './write-wrapper.js';
