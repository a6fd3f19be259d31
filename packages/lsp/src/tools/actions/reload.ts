import { errorResult, type ToolResult } from '@agent-tools/core';
import type { LspParams } from '../lsp-parameters.js';
import { ok, resolveFile, type ToolEnv } from '../shared.js';

/** reload: restarts the server of the file's root, or every server that has run; answers once they are up. */
export async function reload(env: ToolEnv, params: LspParams, signal: AbortSignal): Promise<ToolResult> {
  const path = params.file && params.file.trim() !== '*' ? resolveFile(env, params.file, 'reload').path : undefined;
  const outcomes = await env.supervisor.reload(path, signal);
  if (outcomes.length === 0) {
    return ok('No language server has run yet, so none was restarted; servers start on first use.', { action: 'reload', servers: [] });
  }
  const lines = outcomes.map((o) =>
    o.error
      ? `${o.server} could not be restarted: ${o.error}`
      : o.previousPid === undefined
        ? `${o.server} started: pid ${o.pid} (it was not running).`
        : `${o.server} restarted: pid ${o.previousPid} → ${o.pid}.`,
  );
  const failed = outcomes.filter((o) => o.error).length;
  const text = lines.join('\n');
  const structured = { action: 'reload', servers: outcomes };
  return failed === outcomes.length ? errorResult(text, structured) : ok(text, structured);
}
