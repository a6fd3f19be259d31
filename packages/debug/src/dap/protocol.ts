import type { DebugProtocol as P } from '@vscode/debugprotocol';

/**
 * The DAP requests this package sends, each with its argument and response-body types, taken from
 * `@vscode/debugprotocol` once here so no command string or body shape is written by hand anywhere else.
 */
export interface DapRequests {
  initialize: { args: P.InitializeRequestArguments; body: P.Capabilities | undefined };
  launch: { args: P.LaunchRequestArguments; body: undefined };
  attach: { args: P.AttachRequestArguments; body: undefined };
  configurationDone: { args: P.ConfigurationDoneArguments; body: undefined };
  setBreakpoints: { args: P.SetBreakpointsArguments; body: P.SetBreakpointsResponse['body'] };
  setFunctionBreakpoints: { args: P.SetFunctionBreakpointsArguments; body: P.SetFunctionBreakpointsResponse['body'] };
  setExceptionBreakpoints: {
    args: P.SetExceptionBreakpointsArguments;
    body: P.SetExceptionBreakpointsResponse['body'] | undefined;
  };
  threads: { args: undefined; body: P.ThreadsResponse['body'] };
  stackTrace: { args: P.StackTraceArguments; body: P.StackTraceResponse['body'] };
  scopes: { args: P.ScopesArguments; body: P.ScopesResponse['body'] };
  variables: { args: P.VariablesArguments; body: P.VariablesResponse['body'] };
  evaluate: { args: P.EvaluateArguments; body: P.EvaluateResponse['body'] };
  source: { args: P.SourceArguments; body: P.SourceResponse['body'] };
  exceptionInfo: { args: P.ExceptionInfoArguments; body: P.ExceptionInfoResponse['body'] };
  continue: { args: P.ContinueArguments; body: P.ContinueResponse['body'] | undefined };
  next: { args: P.NextArguments; body: undefined };
  stepIn: { args: P.StepInArguments; body: undefined };
  stepOut: { args: P.StepOutArguments; body: undefined };
  pause: { args: P.PauseArguments; body: undefined };
  disconnect: { args: P.DisconnectArguments; body: undefined };
}

/** A command of {@link DapRequests}. */
export type DapCommand = keyof DapRequests;

/** The DAP events this package reads, with their body types. */
export interface DapEvents {
  initialized: P.InitializedEvent['body'];
  stopped: P.StoppedEvent['body'];
  continued: P.ContinuedEvent['body'];
  exited: P.ExitedEvent['body'];
  terminated: P.TerminatedEvent['body'];
  output: P.OutputEvent['body'];
  breakpoint: P.BreakpointEvent['body'];
  process: P.ProcessEvent['body'];
  thread: P.ThreadEvent['body'];
}

/** An event of {@link DapEvents}. */
export type DapEventName = keyof DapEvents;

/** A DAP event as it arrives, narrowed by name. */
export type DapEvent = { [E in DapEventName]: { readonly event: E; readonly body: DapEvents[E] } }[DapEventName];

export type { P as DebugProtocol };
