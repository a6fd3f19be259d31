import type { AdapterConfig } from './adapter.js';
import { dartAdapter } from './dart.js';
import { debugpyAdapter } from './debugpy.js';
import { delveAdapter } from './delve.js';
import { lldbAdapter } from './lldb.js';

/** The adapters known out of the box, in listing order: dart, debugpy, lldb, delve. */
export function builtinAdapters(): AdapterConfig[] {
  return [dartAdapter(), debugpyAdapter(), lldbAdapter(), delveAdapter()];
}

/** The built-ins with `extra` added; an extra configuration with a built-in id replaces that one. */
export function mergeAdapters(extra: readonly AdapterConfig[] = []): AdapterConfig[] {
  const byId = new Map(builtinAdapters().map((a) => [a.id, a] as const));
  for (const adapter of extra) byId.set(adapter.id, adapter);
  return [...byId.values()];
}
