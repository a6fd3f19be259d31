import type { ToolResult } from '@agent-tools/core';
import { HoverRequest } from 'vscode-languageserver-protocol';
import { hoverData, renderHover } from '../../format/hover.js';
import type { LspParams } from '../lsp-parameters.js';
import { ok, openTarget, requireCapability, type ToolEnv } from '../shared.js';

/** hover: the signature and doc comment of the symbol. */
export async function hover(env: ToolEnv, params: LspParams, signal: AbortSignal): Promise<ToolResult> {
  const { server, doc, position, file } = await openTarget(env, params, 'hover', signal);
  requireCapability(server, 'hoverProvider', 'hover', 'Try definition instead.');
  const answer = await server.request(
    HoverRequest.type,
    { textDocument: { uri: doc.uri }, position: { line: position.line, character: position.character } },
    { signal },
  );
  const symbol = position.lineText.slice(position.character, position.character + position.length);
  const data = hoverData(answer);
  if (!data) {
    return ok(`The server has no hover information for \`${symbol}\` (${file}:${position.line + 1}).`, { action: 'hover', symbol, signature: '', documentation: '' });
  }
  return ok(renderHover(data), { action: 'hover', symbol, ...data });
}
