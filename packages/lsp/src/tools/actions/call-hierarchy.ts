import type { ToolResult } from '@agent-tools/core';
import { plural } from '@agent-tools/core/internal';
import {
  type CallHierarchyIncomingCall,
  CallHierarchyIncomingCallsRequest,
  type CallHierarchyItem,
  type CallHierarchyOutgoingCall,
  CallHierarchyOutgoingCallsRequest,
  CallHierarchyPrepareRequest,
  type Range,
} from 'vscode-languageserver-protocol';
import { isLspError, LspError } from '../../errors.js';
import { LineReader } from '../../format/line-reader.js';
import { fileCount, type RawLocation, renderLocations } from '../../format/locations.js';
import { callWith, cutInHead } from '../../format/paging.js';
import { kindName } from '../../format/symbols.js';
import type { LanguageServer } from '../../server/language-server.js';
import { fromUri } from '../../util/paths.js';
import type { LspParams } from '../lsp-parameters.js';
import { pageData } from '../page-data.js';
import { pathFilter } from '../path-filter.js';
import { askWhenComplete, leadOf, ok, openTarget, type Reporter, requireCapability, type ToolEnv } from '../shared.js';

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
  const lead = leadOf(target, completeness);
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
  const all = action === 'incoming_calls' ? await incoming(server, items, signal) : await outgoing(server, items, signal);
  const filter = pathFilter(env.cwd, params.path);
  const locations = filter ? all.filter((l) => filter.matches(l.path)) : all;
  const reader = new LineReader(env.cwd, (path) => server.documents.get(path)?.text);
  const noun = action === 'incoming_calls' ? 'calls' : 'functions';
  if (locations.length === 0) {
    const none = filter
      ? `None of the ${plural(all.length, noun.slice(0, -1), noun)} ${action === 'incoming_calls' ? `to ${subject}` : `${subject} calls`} ${all.length === 1 ? 'is' : 'are'} in ${filter.label}.`
      : action === 'incoming_calls'
        ? `No calls to ${subject} were found.`
        : `${subject} calls no function the server knows of.`;
    return ok(`${lead}${none}`, { action, symbol, total: 0, ...flags, locations: [] });
  }
  const rendered = renderLocations(locations, {
    cwd: env.cwd,
    reader,
    max: CAP,
    first: target.path,
    offset: params.offset ?? 0,
    noun,
    nextCall: (offset) => callWith(params, offset),
  });
  const files = fileCount(locations);
  const within = filter ? ` (${locations.length} of ${all.length}, those in ${filter.label})` : '';
  const head =
    action === 'incoming_calls'
      ? `${plural(locations.length, 'call')} to ${subject}${files > 1 ? ` in ${plural(files, 'file')}` : ''}${within}${cutInHead(rendered)}:`
      : `${subject} calls ${plural(locations.length, 'function')}${files > 1 ? ` declared in ${plural(files, 'file')}` : ''}${within}${cutInHead(rendered)}:`;
  return ok(`${lead}${head}\n${rendered.text}`, {
    action,
    symbol,
    total: rendered.total,
    ...flags,
    ...pageData(rendered, filter),
    locations: rendered.data,
  });
}

async function incoming(server: LanguageServer, items: readonly CallHierarchyItem[], signal: AbortSignal): Promise<RawLocation[]> {
  const calls: CallHierarchyIncomingCall[] = [];
  for (const item of items) calls.push(...((await ask(server, 'incoming', () => server.request(CallHierarchyIncomingCallsRequest.type, { item }, { signal }))) ?? []));
  // A call site is listed once, even when the server files it under two callers (clangd, for a function defined
  // in both branches of an #if): the callers are named together.
  const sites = new Map<string, { path: string; range: Range; callers: string[] }>();
  for (const call of calls) {
    const path = fromUri(call.from.uri);
    if (!path) continue;
    const caller = `${kindName(call.from.kind)} ${bareName(call.from.name)}`;
    for (const range of call.fromRanges) {
      const key = `${path}\u0000${range.start.line}:${range.start.character}`;
      const site = sites.get(key);
      if (!site) sites.set(key, { path, range, callers: [caller] });
      else if (!site.callers.includes(caller)) site.callers.push(caller);
    }
  }
  return [...sites.values()].map((s) => ({ path: s.path, range: server.positions.range(s.path, s.range), note: `in ${s.callers.join(' or ')}` }));
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
