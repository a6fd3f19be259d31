import type { BreakpointEntry, FunctionBreakpointEntry } from './breakpoints.js';
import type { StopInfo } from './types.js';

/** A variable as the model sees it. */
export interface VariableView {
  readonly name: string;
  readonly value: string;
  readonly type?: string;
  /** Pass to `variables` to see its children (present only when it has some). */
  readonly reference?: number;
  /** How many children, when the adapter said. */
  readonly children?: number;
}

/** A capped list of variables. */
export interface VariablesView {
  readonly items: readonly VariableView[];
  /** The total when known. */
  readonly total?: number;
  /** Whether more exist than are shown. */
  readonly more: boolean;
}

/** A stack frame as the model sees it. */
export interface FrameView {
  readonly id: number;
  readonly name: string;
  /** The source path the adapter gave (absolute for files on disk). */
  readonly path?: string;
  readonly line: number;
  /** The adapter has no source for it (library code, generated code). */
  readonly noSource?: boolean;
  /** Not a frame but a marker between frames: js-debug's async boundary ("await", "setTimeout"). */
  readonly label?: boolean;
}

/** A window of source lines around a frame's line. */
export interface SourceWindow {
  readonly line: number;
  readonly lines: readonly { readonly number: number; readonly text: string }[];
}

/** Everything a stop answer shows. */
export interface StopSnapshot {
  readonly stop: StopInfo;
  readonly threadId: number | undefined;
  readonly threadName?: string;
  readonly frame?: FrameView;
  readonly source?: SourceWindow;
  /** The next few frames below the top one. */
  readonly callers: readonly FrameView[];
  readonly locals?: { readonly scope: string; readonly reference: number; readonly variables: VariablesView };
  /** The scopes between a block and its function (js-debug's "Block: …" then "Local: …"), also shown. */
  readonly moreLocals?: readonly { readonly scope: string; readonly reference: number; readonly variables: VariablesView }[];
  readonly exception?: { readonly id?: string; readonly description?: string; readonly details?: string };
  /** The breakpoint the stop hit, when the adapter named it (`hitBreakpointIds`). */
  readonly breakpoint?: { readonly file?: string; readonly entry: BreakpointEntry | FunctionBreakpointEntry };
}

