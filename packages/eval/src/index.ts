/**
 * @agent-tools/eval: persistent Python and JavaScript cells on Jupyter kernels: the eval tool.
 */
export { BRIDGE_MARKER, type BridgeCall, type BridgeReply, type BridgeRequest, type BridgeResult } from './bridge.js';
export { EvalToolError, type EvalToolErrorCode } from './errors.js';
export { evalTools } from './factory.js';
export type { JupyterEndpoint } from './jupyter/endpoint.js';
export {
  type AcquiredKernel,
  createKernelFactory,
  type JupyterEnvironment,
  type KernelFactory,
  type KernelFactoryOptions,
} from './jupyter/kernel-factory.js';
export type { CellOutput, ExecuteHandlers, ExecuteReply, KernelSession, MimeBundle } from './jupyter/kernel-session.js';
export { installKernelSpecs, KERNEL_SPEC_NAMES, type KernelSpecOptions } from './jupyter/kernel-specs.js';
export { type KernelLanguage, LANGUAGES } from './language.js';
export { type Rewrite, rewritePython, SUPPORTED_IDIOMS } from './python/magics.js';
export { CAPS, type CellEnd, type EvalStructured } from './render/cell-result.js';
export { htmlTableToMarkdown, type TableCaps } from './render/html-table.js';
export { DEFAULT_IDLE_SECONDS, evalParameters, evalTool } from './tools/eval.js';
