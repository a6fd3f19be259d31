import type { AdapterConfig } from './adapter.js';
import { dartAdapter } from './dart.js';
import { debugpyAdapter } from './debugpy.js';
import { delveAdapter } from './delve.js';
import { type JsAdapterOptions, jsAdapter } from './js.js';
import { lldbAdapter } from './lldb.js';

/** The adapters known out of the box, in listing order: dart, debugpy, lldb, delve, js. */
export function builtinAdapters(js: JsAdapterOptions = {}): AdapterConfig[] {
  return [dartAdapter(), debugpyAdapter(), lldbAdapter(), delveAdapter(), jsAdapter(js)];
}

/** The built-ins with `extra` added; an extra configuration with a built-in id replaces that one. */
export function mergeAdapters(extra: readonly AdapterConfig[] = [], js: JsAdapterOptions = {}): AdapterConfig[] {
  const byId = new Map(builtinAdapters(js).map((a) => [a.id, a] as const));
  for (const adapter of extra) byId.set(adapter.id, adapter);
  return [...byId.values()];
}
