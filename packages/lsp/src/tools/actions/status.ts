import type { ToolResult } from '@agent-tools/core';
import { rootLabel } from '../../format/root-label.js';
import { renderStatus } from '../../format/status.js';
import { displayPath } from '../../util/paths.js';
import type { LspParams } from '../lsp-parameters.js';
import { ok, resolveFile, type ToolEnv } from '../shared.js';

/** status: which servers run for which roots, and for the others what is missing and where it was looked for. */
export function status(env: ToolEnv, params: LspParams): ToolResult {
  const servers = env.supervisor.status();
  let text = renderStatus(env.cwd, servers);
  const off = env.supervisor.turnedOff.map((config) => config.name);
  // A model in a project with an ESLint config must be able to tell that lint is off in this run, not merely absent.
  if (off.length) text += `\nTurned off by the harness (not asked in this run): ${off.join(', ')}.`;
  let forFile:
    | { file: string; server?: string; root?: string; reason?: string; additional?: ReadonlyArray<{ server: string; root: string; reason?: string }> }
    | undefined;
  if (params.file && params.file.trim() !== '*') {
    const { path, file } = resolveFile(env, params.file, 'status');
    const resolution = env.supervisor.resolve(path);
    if (resolution.ok) {
      const root = displayPath(resolution.root, env.cwd);
      forFile = { file, server: resolution.config.name, root };
      text += `\nFor ${file}: ${resolution.config.name} answers, with root ${rootLabel(resolution.root, env.cwd)}.`;
    } else {
      forFile = { file, reason: resolution.reason };
      text += `\nFor ${file}: ${resolution.reason}`;
    }
    const found = env.supervisor.additionalFor(path);
    const additional = found.map((a) =>
      a.ok ? { server: a.config.name, root: displayPath(a.root, env.cwd) } : { server: a.config.name, root: displayPath(a.root, env.cwd), reason: a.reason },
    );
    for (const a of found) {
      text += a.ok
        ? `\n  ${a.config.name} adds its diagnostics and code actions, with root ${rootLabel(a.root, env.cwd)}.`
        : `\n  ${a.config.name} cannot add its diagnostics (root ${displayPath(a.root, env.cwd)}): ${a.reason}.`;
    }
    if (additional.length) forFile = { ...forFile, additional };
  }
  return ok(text, { action: 'status', servers, ...(forFile ? { file: forFile } : {}) });
}
