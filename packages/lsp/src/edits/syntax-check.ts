import { createRequire } from 'node:module';
import { extname } from 'node:path';
import type * as Ts from 'typescript';
import { familyOf } from '../position/code-mask.js';

const require = createRequire(import.meta.url);
let typescript: typeof Ts | undefined;

/**
 * The first syntax error an edit adds to a JavaScript or TypeScript file (`1:17 'class' is a reserved word that
 * cannot be used here.`), or undefined when it adds none or the file is another language. Parsed with the
 * `typescript` this package depends on, loaded on first use.
 */
export function syntaxErrorAdded(path: string, before: string, after: string): string | undefined {
  if (familyOf(path) !== 'js') return undefined;
  typescript ??= require('typescript') as typeof Ts;
  const ts = typescript;
  const kind = SCRIPT_KINDS[extname(path).toLowerCase()] ?? ts.ScriptKind.TS;
  const errors = (text: string) => {
    const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, kind);
    // The parser's own diagnostics: not in the public typings, present in every 5.x release.
    const found = (file as unknown as { parseDiagnostics?: readonly Ts.DiagnosticWithLocation[] }).parseDiagnostics ?? [];
    return found.map((d) => {
      const { line, character } = file.getLineAndCharacterOfPosition(d.start);
      return `${line + 1}:${character + 1} ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`;
    });
  };
  const was = new Set(errors(before).map((e) => e.replace(/^\d+:\d+ /, '')));
  const now = errors(after);
  if (now.length <= was.size) return undefined;
  return now.find((e) => !was.has(e.replace(/^\d+:\d+ /, ''))) ?? now[0];
}

const SCRIPT_KINDS: Record<string, Ts.ScriptKind> = { '.ts': 3, '.mts': 3, '.cts': 3, '.tsx': 4, '.js': 1, '.mjs': 1, '.cjs': 1, '.jsx': 2 };
