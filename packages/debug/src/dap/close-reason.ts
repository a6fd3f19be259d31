/**
 * Why a DAP connection closed. The session decides what to tell the model by the kind (a plain close is best
 * described by the adapter's exit status, a protocol fault by what went wrong), never by comparing sentences.
 */
export type CloseReason =
  /** The adapter closed its end of the stream: usually it exited, and its exit status says more. */
  | { readonly kind: 'eof' }
  /** The adapter sent something that is not a DAP message. */
  | { readonly kind: 'malformed'; readonly detail: string }
  /** The stream failed (a socket error). */
  | { readonly kind: 'stream_error'; readonly detail: string }
  /** The adapter process exited; `detail` says how ("the debugpy adapter exited with code 1"). */
  | { readonly kind: 'exited'; readonly detail: string }
  /** This side ended the session. */
  | { readonly kind: 'ended' };

/** The reason as the end of a sentence about the adapter ("... cannot answer "threads": it closed the connection"). */
export function describeClose(reason: CloseReason): string {
  switch (reason.kind) {
    case 'eof':
      return 'it closed the connection';
    case 'malformed':
      return `it sent a malformed message (${reason.detail})`;
    case 'stream_error':
      return `the connection failed (${reason.detail})`;
    case 'exited':
      return reason.detail;
    case 'ended':
      return 'the session was ended';
  }
}

/** The reason as a clause naming the adapter, for a crash report ("the debugpy adapter closed the connection"). */
export function describeAdapterClose(adapter: string, reason: CloseReason): string {
  switch (reason.kind) {
    case 'eof':
      return `the ${adapter} adapter closed the connection`;
    case 'malformed':
      return `the ${adapter} adapter sent a malformed message (${reason.detail})`;
    case 'stream_error':
      return `the connection to the ${adapter} adapter failed (${reason.detail})`;
    case 'exited':
      return reason.detail;
    case 'ended':
      return 'the session was ended';
  }
}
