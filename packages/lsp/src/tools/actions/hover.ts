import type { ToolResult } from '@agent-tools/core';
import { HoverRequest } from 'vscode-languageserver-protocol';
import { hoverData, relativeLinks, renderHover } from '../../format/hover.js';
import type { LspParams } from '../lsp-parameters.js';
import { askWhenComplete, leadOf, ok, openTarget, type Reporter, requireCapability, type ToolEnv } from '../shared.js';

/** hover: the signature and doc comment of the symbol. */
export async function hover(env: ToolEnv, params: LspParams, signal: AbortSignal, report?: Reporter): Promise<ToolResult> {
  const target = await openTarget(env, params, 'hover', signal);
  const { server, doc, position, file, at, symbol } = target;
  requireCapability(server, 'hoverProvider', 'hover', 'Try definition instead.');
  const { answer, completeness } = await askWhenComplete(
    env,
    server,
    signal,
    () => server.request(HoverRequest.type, { textDocument: { uri: doc.uri }, position: at }, { signal }),
    report,
  );
  const raw = hoverData(answer);
  const data = raw && relativeLinks(raw, env.cwd);
  const lead = leadOf(target, completeness);
  const flags = completeness.complete ? {} : { incomplete: completeness.reason };
  if (!data) {
    return ok(`${lead}The server has no hover information for \`${symbol}\` (${file}:${position.line + 1}).`, { action: 'hover', symbol, ...flags, signature: '', documentation: '' });
  }
  return ok(`${lead}${renderHover(data)}`, { action: 'hover', symbol, ...flags, ...data });
}
