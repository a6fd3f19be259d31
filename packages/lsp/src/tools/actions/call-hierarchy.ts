import type { ToolResult } from '@agent-tools/core';
import {
  type CallHierarchyIncomingCall,
  CallHierarchyIncomingCallsRequest,
  type CallHierarchyItem,
  type CallHierarchyOutgoingCall,
  CallHierarchyOutgoingCallsRequest,
  CallHierarchyPrepareRequest,
} from 'vscode-languageserver-protocol';
import { isLspError, LspError } from '../../errors.js';
import { LineReader } from '../../format/line-reader.js';
import { fileCount, type RawLocation, renderLocations } from '../../format/locations.js';
import { kindName } from '../../format/symbols.js';
import type { LanguageServer } from '../../server/language-server.js';
import { fromUri } from '../../util/paths.js';
import { plural } from '../../util/text.js';
import type { LspParams } from '../lsp-parameters.js';
import { askWhenComplete, incompleteLine, ok, openTarget, type Reporter, requireCapability, type ToolEnv } from '../shared.js';

/** The two directions of the call hierarchy. */
export type CallDirection = 'incoming_calls' | 'outgoing_calls';

const CAP = 50;

/**
 * incoming_calls: every call site of the function at the position, each with the function it is in.
 * outgoing_calls: every function it calls, at its declaration, with how often it is called. Through
 * prepareCallHierarchy, so the answer is about the function the server resolves there.
 */
export async function callHierarchy(env: ToolEnv, action: CallDirection, params: LspParams, signal: AbortSignal, report?: Reporter): Promise<ToolResult> {
  const target = await openTarget(env, params, action, signal);
  const { server, doc, position, at, symbol, file } = target;
  requireCapability(server, 'callHierarchyProvider', 'a call hierarchy', 'Use references to find the uses instead.');
  const prepared = await askWhenComplete(
    env,
    server,
    signal,
    () => server.request(CallHierarchyPrepareRequest.type, { textDocument: { uri: doc.uri }, position: at }, { signal }),
    report,
  );
  const { completeness } = prepared;
  const items = prepared.answer ?? [];
  const subject = `\`${symbol}\` (${file}:${position.line + 1})`;
  const lead = incompleteLine(completeness);
  const flags = completeness.complete ? {} : { incomplete: completeness.reason };
  if (items.length === 0) {
    return ok(`${lead}The server finds no function or method at ${subject}, so it has no calls to list. Address a function's name.`, {
      action,
      symbol,
      total: 0,
      ...flags,
      locations: [],
    });
  }
  const locations = action === 'incoming_calls' ? await incoming(server, items, signal) : await outgoing(server, items, signal);
  const reader = new LineReader(env.cwd, (path) => server.documents.get(path)?.text);
  if (locations.length === 0) {
    const none = action === 'incoming_calls' ? `No calls to ${subject} were found.` : `${subject} calls no function the server knows of.`;
    return ok(`${lead}${none}`, { action, symbol, total: 0, ...flags, locations: [] });
  }
  const rendered = renderLocations(locations, { cwd: env.cwd, reader, max: CAP, first: target.path });
  const files = fileCount(locations);
  const head =
    action === 'incoming_calls'
      ? `${plural(locations.length, 'call')} to ${subject}${files > 1 ? ` in ${plural(files, 'file')}` : ''}:`
      : `${subject} calls ${plural(locations.length, 'function')}${files > 1 ? ` declared in ${plural(files, 'file')}` : ''}:`;
  return ok(`${lead}${head}\n${rendered.text}`, {
    action,
    symbol,
    total: rendered.total,
    ...flags,
    ...(rendered.note ? { note: rendered.note } : {}),
    locations: rendered.data,
  });
}

async function incoming(server: LanguageServer, items: readonly CallHierarchyItem[], signal: AbortSignal): Promise<RawLocation[]> {
  const calls: CallHierarchyIncomingCall[] = [];
  for (const item of items) calls.push(...((await ask(server, 'incoming', () => server.request(CallHierarchyIncomingCallsRequest.type, { item }, { signal }))) ?? []));
  const out: RawLocation[] = [];
  for (const call of calls) {
    const path = fromUri(call.from.uri);
    if (!path) continue;
    const sites = new Map(call.fromRanges.map((r) => [`${r.start.line}:${r.start.character}`, r]));
    for (const range of sites.values()) out.push({ path, range: server.positions.range(path, range), note: `in ${kindName(call.from.kind)} ${bareName(call.from.name)}` });
  }
  return out;
}

async function outgoing(server: LanguageServer, items: readonly CallHierarchyItem[], signal: AbortSignal): Promise<RawLocation[]> {
  const calls: CallHierarchyOutgoingCall[] = [];
  for (const item of items) calls.push(...((await ask(server, 'outgoing', () => server.request(CallHierarchyOutgoingCallsRequest.type, { item }, { signal }))) ?? []));
  const out: RawLocation[] = [];
  for (const call of calls) {
    const path = fromUri(call.to.uri);
    if (!path) continue;
    // tsserver lists a call site once per signature it resolves to.
    const times = new Set(call.fromRanges.map((r) => `${r.start.line}:${r.start.character}`)).size;
    out.push({
      path,
      range: server.positions.range(path, call.to.selectionRange),
      note: `${kindName(call.to.kind)} ${bareName(call.to.name)}, called ${times === 1 ? 'once' : `${times} times`}`,
    });
  }
  return out;
}

/** A server that announces a call hierarchy but lacks one direction (clangd 19: no outgoing calls) is named. */
async function ask<T>(server: LanguageServer, direction: 'incoming' | 'outgoing', request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (error) {
    if (isLspError(error, 'unsupported')) {
      throw new LspError('unsupported', `${server.config.name} offers a call hierarchy but not ${direction} calls. Use ${direction === 'incoming' ? 'references' : 'definition on the calls in its body'} instead.`);
    }
    throw error;
  }
}

/** A name without the kind some servers put in front of it (pyright: `(module) report.py`). */
function bareName(name: string): string {
  return name.replace(/^\([a-z ]+\)\s+/, '');
}
