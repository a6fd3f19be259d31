import { formatProgress, type ProgressListener } from '@agent-tools/core';
import type { ServerNotification } from '@modelcontextprotocol/sdk/types.js';

/** Sends one notification tied to the request being answered. */
export type NotificationSender = (notification: ServerNotification) => Promise<void>;

/**
 * A registry progress listener that forwards each report as `notifications/progress` for the request's token.
 * MCP wants `progress` to grow with every notification, while a tool's own count may repeat or be absent: a report
 * whose count does not grow is sent one step past the last one, and its total only when it still lies ahead.
 * The registry has already throttled the reports. A failed send (the client went away) is dropped: the call's own
 * end is what matters then.
 */
export function progressSender(token: string | number, send: NotificationSender): ProgressListener {
  let last = 0;
  return (event) => {
    const counted = event.progress !== undefined && event.progress > last ? event.progress : last + 1;
    last = counted;
    const total = event.total !== undefined && event.total >= counted ? { total: event.total } : {};
    // A failed send means the client's transport closed: nothing is left to tell (see above).
    send({
      method: 'notifications/progress',
      params: { progressToken: token, progress: counted, ...total, message: formatProgress(event) },
    }).catch(() => {});
  };
}
