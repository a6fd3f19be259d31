import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

type AstModule = typeof import('@agent-tools/ast');

/**
 * Another build of `@agent-tools/ast` to measure in the same rounds as this one ("before" rows, for a change's
 * before/after figures side by side): AST_BENCH_BEFORE is the path of that build's `dist/index.js`, kept inside
 * packages/ast (say packages/ast/dist-before/) so its own imports resolve. Undefined when not set.
 */
export async function astBefore(): Promise<AstModule | undefined> {
  const path = process.env['AST_BENCH_BEFORE'];
  if (!path) return undefined;
  return (await import(pathToFileURL(isAbsolute(path) ? path : resolve(path)).href)) as AstModule;
}
