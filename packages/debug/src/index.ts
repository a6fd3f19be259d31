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
export { dartAdapter } from './adapters/dart.js';
export { debugpyAdapter } from './adapters/debugpy.js';
export { delveAdapter } from './adapters/delve.js';
export { type JsAdapterOptions, jsAdapter } from './adapters/js.js';
export { JS_DEBUG_ENV } from './adapters/js-debug-locate.js';
export { lldbAdapter } from './adapters/lldb.js';
export type { AdapterReport } from './adapters/select.js';
export { type Clock, type ClockTimer, systemClock } from './clock.js';
export { DapConnection, type DapConnectionOptions, type RequestOptions } from './dap/connection.js';
export type { DapCommand, DapEventName, DapEvents, DapRequests } from './dap/protocol.js';
export { DebugError, type DebugErrorCode, isDebugError } from './errors.js';
export { debugTools } from './factory.js';
export type { EndInfo, SessionState, StopInfo } from './session/types.js';
export { createDebugSupervisor, DebugSupervisor, type DebugSupervisorOptions } from './supervisor.js';
export { DEBUG_ACTIONS, type DebugParams, debugParameters, debugTool } from './tools/debug.js';
