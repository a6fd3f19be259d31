import type { ToolResult } from '@agent-tools/core';
import { renderStatus } from '../../format/status.js';
import { displayPath } from '../../util/paths.js';
import type { LspParams } from '../lsp-parameters.js';
import { ok, resolveFile, type ToolEnv } from '../shared.js';

/** status: which servers run for which roots, and for the others what is missing and where it was looked for. */
export function status(env: ToolEnv, params: LspParams): ToolResult {
  const servers = env.supervisor.status();
  let text = renderStatus(env.cwd, servers);
  let forFile:
    | { file: string; server?: string; root?: string; reason?: string; additional?: ReadonlyArray<{ server: string; root: string; reason?: string }> }
    | undefined;
  if (params.file && params.file.trim() !== '*') {
    const { path, file } = resolveFile(env, params.file, 'status');
    const resolution = env.supervisor.resolve(path);
    if (resolution.ok) {
      const root = displayPath(resolution.root, env.cwd);
      forFile = { file, server: resolution.config.name, root };
      text += `\nFor ${file}: ${resolution.config.name} answers, with root ${root}.`;
    } else {
      forFile = { file, reason: resolution.reason };
      text += `\nFor ${file}: ${resolution.reason}`;
    }
    const additional = env.supervisor.additionalFor(path).map((a) =>
      a.ok ? { server: a.config.name, root: displayPath(a.root, env.cwd) } : { server: a.config.name, root: displayPath(a.root, env.cwd), reason: a.reason },
    );
    for (const a of additional) {
      text += 'reason' in a ? `\n  ${a.server} cannot add its diagnostics (root ${a.root}): ${a.reason}.` : `\n  ${a.server} adds its diagnostics and code actions, with root ${a.root}.`;
    }
    if (additional.length) forFile = { ...forFile, additional };
  }
  return ok(text, { action: 'status', servers, ...(forFile ? { file: forFile } : {}) });
}
