/**
 * @agent-tools/lsp: the language-server supervisor, the `lsp`, `lsp_rename` and `lsp_fix` tools, and the
 * diagnostics source behind core's write wrapping.
 */
export { builtinServers } from './config/builtin-servers.js';
export {
  type BinaryRun,
  type BundledResolver,
  type DependentsFinder,
  type DiagnosticsPuller,
  defineServer,
  type IgnoreCheck,
  type ServerConfig,
  type ServerContext,
} from './config/server-config.js';
export type { BinarySource, ResolvedCommand } from './discovery/binary.js';
export type { Resolution } from './discovery/resolution.js';
export { LspError, type LspErrorCode } from './errors.js';
export { lspTools } from './factory.js';
export type { CheckerContext, CheckerOutput, CheckerRun, ProjectChecker } from './project-check/checker.js';
export type { ProjectCheckPart } from './project-check/project-check.js';
export type { InnerProcessSpec } from './server/inner-process.js';
export type { LanguageServer, ServerState } from './server/language-server.js';
export {
  createLspSupervisor,
  type InstanceStatus,
  LspSupervisor,
  type LspSupervisorOptions,
  type ReloadOutcome,
  type ServerStatus,
} from './supervisor.js';
export { lspFixParameters } from './tools/lsp-fix.js';
export { lspParameters } from './tools/lsp-parameters.js';
export { lspRenameParameters } from './tools/lsp-rename.js';
