/**
 * @agent-tools/debug: the debug-session supervisor (Debug Adapter Protocol over stdio or TCP) and the `debug`
 * tool.
 */
export type {
  AdapterCommand,
  AdapterConfig,
  AdapterTransport,
  AttachInput,
  LaunchInput,
  LocateContext,
  LocateResult,
} from './adapters/adapter.js';
export { builtinAdapters } from './adapters/builtin.js';
export type { JsAdapterOptions } from './adapters/js.js';
export type { AdapterReport } from './adapters/select.js';
export type { Clock, ClockTimer } from './clock.js';
export type { DapEventName, DapEvents, DapRequests } from './dap/protocol.js';
export { DebugError, type DebugErrorCode } from './errors.js';
export { debugTools } from './factory.js';
export { createDebugSupervisor, DebugSupervisor, type DebugSupervisorOptions } from './supervisor.js';
export { debugParameters } from './tools/debug.js';
