/**
 * @agent-tools/core: the tier model, tool definitions, the registrar, the diagnostics ledger and write wrapping —
 * what a harness author needs to assemble a run and to write the harness's own tools. Helpers for authors of
 * agent-tools packages are in `@agent-tools/core/internal`; the process supervisor is in `@agent-tools/core/process`.
 */
export { type ApprovalCallback, type ApprovalDecision, type ApprovalRequest, approveAll } from './approval.js';
export { writeFileAtomic } from './atomic-write.js';
export type {
  CheckOptions,
  Dependents,
  Diagnostic,
  DiagnosticSeverity,
  DiagnosticsSource,
  FileCheck,
  PendingPart,
} from './diagnostics/diagnostic.js';
export type { LedgerLimits } from './diagnostics/ledger.js';
export type {
  RunDiagnostics,
  RunDiagnosticsOptions,
  WriteDiagnostics,
  WrittenFileReport,
} from './diagnostics/run-diagnostics.js';
export { type ErrorData, toolErrorResult } from './error-result.js';
export {
  AgentToolsError,
  type AgentToolsErrorOptions,
  CoreError,
  type CoreErrorCode,
  errorDetail,
  errorSentence,
  isAgentToolsError,
} from './errors.js';
export {
  type AnyToolFactory,
  defineFactory,
  type FactoryOutput,
  type FactoryRun,
  type Resources,
  type ResourcesWith,
  type ToolFactory,
} from './factory.js';
export { fileWritesSettled, withFileLock } from './file-lock.js';
export { type AnthropicInputSchema, type AnthropicTool, toAnthropicTools } from './model-apis/anthropic.js';
export { type GeminiFunctionDeclaration, type GeminiTool, toGeminiTools } from './model-apis/gemini.js';
export {
  type OpenAIChatTool,
  type OpenAIResponsesTool,
  type OpenAIToolOptions,
  toOpenAITools,
} from './model-apis/openai.js';
export { toStrictSchema } from './model-apis/strict-schema.js';
export type { Notice, NoticeLimits, RunNotices } from './notices.js';
export {
  type DisplayPathOptions,
  displayPath,
  type ResolvedPath,
  type ResolveOptions,
  resolveInside,
} from './paths.js';
export { formatProgress, type ProgressEvent, type ProgressListener, type ToolProgress } from './progress.js';
export { createRegistry, type ErrorContext, type FactoryStatus, Registry, type RegistryOptions } from './registry.js';
export { readRegularFileSync } from './regular-file.js';
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
export { admits, builtinSurfaces, defaultSurface, defineSurface, type Surface } from './surface.js';
export { needsApproval, TIERS, type Tier } from './tier.js';
export {
  type AnyToolDefinition,
  type CallOptions,
  defineTool,
  type ToolCaller,
  type ToolContext,
  type ToolDefinition,
} from './tool.js';
export { type WithDiagnostics, type WrapWriteOptions, wrapWrite } from './write-wrapper.js';
