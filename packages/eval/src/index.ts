/**
 * @agent-tools/eval: persistent Python and JavaScript cells on Jupyter kernels: the eval tool.
 */
export type { BridgeCall, BridgeReply, BridgeRequest, BridgeResult } from './bridge.js';
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
export { installKernelSpecs, type KernelSpecOptions } from './jupyter/kernel-specs.js';
export type { KernelLanguage } from './language.js';
export type { Rewrite } from './python/magics.js';
export type { CellEnd, EvalStructured } from './render/cell-result.js';
export type { TableCaps } from './render/html-table.js';
export { evalParameters } from './tools/eval.js';
