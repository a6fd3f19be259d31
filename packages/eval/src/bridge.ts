import type { ContentPart, ToolCaller, ToolResult } from '@agent-tools/core';

/**
 * The tool bridge rides the kernel's stdin channel: a cell's `tool(...)` sends an `input_request` whose prompt
 * starts with this marker and carries the calls as JSON; the host answers with an `input_reply` carrying the
 * results as JSON. ipykernel reads the stdin channel while a cell runs (it does not read shell comm messages),
 * and the channel belongs to the kernel connection, so there is no port to open and no secret to share.
 */
export const BRIDGE_MARKER = '\u0000agent-tools:bridge\u0000';

/** One call a cell asks the host to make. */
export interface BridgeCall {
  readonly name: string;
  readonly args: unknown;
}

/** What the kernel sends: one call, or several the host runs concurrently (a cell fanning work out). */
export interface BridgeRequest {
  readonly calls: readonly BridgeCall[];
}

/** The answer to one call, as the cell sees it. */
export interface BridgeResult {
  readonly text: string;
  readonly isError: boolean;
  readonly structured?: unknown;
  readonly images: readonly { readonly mimeType: string; readonly data: string }[];
}

/** The host's reply: one result per call, in order. */
export interface BridgeReply {
  readonly results: readonly BridgeResult[];
}

/** The kernel fetching part `part` of a reply that travels in parts (see `encodeReply`). */
export interface BridgePartRequest {
  readonly part: number;
}

/** Reads a bridge request out of an input_request prompt; `undefined` when the prompt is ordinary input(). */
export function parseBridgePrompt(prompt: string): BridgeRequest | BridgePartRequest | { readonly malformed: string } | undefined {
  if (!prompt.startsWith(BRIDGE_MARKER)) return undefined;
  try {
    const value = JSON.parse(prompt.slice(BRIDGE_MARKER.length)) as Partial<BridgeRequest> & { part?: unknown };
    if (Number.isInteger(value.part)) return { part: value.part as number };
    if (!Array.isArray(value.calls) || value.calls.some((c) => typeof c?.name !== 'string')) {
      return { malformed: 'expected {"calls": [{"name": string, "args": object}]}' };
    }
    return { calls: value.calls.map((c) => ({ name: c.name, args: c.args ?? {} })) };
  } catch (error) {
    return { malformed: error instanceof Error ? error.message : String(error) };
  }
}

/** Turns a registry result into what the cell receives. */
export function toBridgeResult(result: ToolResult): BridgeResult {
  const text = result.content
    .filter((part): part is Extract<ContentPart, { type: 'text' }> => part.type === 'text')
    .map((part) => part.text)
    .join('\n');
  const images = result.content
    .filter((part): part is Extract<ContentPart, { type: 'image' }> => part.type === 'image')
    .map((part) => ({ mimeType: part.mimeType, data: part.data }));
  return {
    text,
    isError: result.isError,
    ...(result.structured === undefined ? {} : { structured: result.structured }),
    images,
  };
}

/**
 * Runs a bridge request through the registry: every call goes through the surface, approval and wrappers of the
 * eval call that made it. Calls of one request run concurrently; the registry serializes what must be.
 */
export async function runBridgeRequest(request: BridgeRequest, caller: ToolCaller, signal: AbortSignal): Promise<BridgeReply> {
  const results = await Promise.all(
    request.calls.map(async (call) => toBridgeResult(await caller.call(call.name, call.args, { signal }))),
  );
  return { results };
}
