import type { Family } from '../position/code-mask.js';

const JS_IDENTIFIER = /^[\p{ID_Start}$_][\p{ID_Continue}$\u200c\u200d]*$/u;
const PYTHON_IDENTIFIER = /^[\p{XID_Start}_][\p{XID_Continue}]*$/u;
/** Python's keywords: never a name, not even an attribute's (soft keywords like `match` and `type` are names). */
const PYTHON_KEYWORDS = new Set(
  'False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield'.split(' '),
);

/**
 * Why `name` cannot be the new name of a symbol in a file of `family`, or undefined when it can. Checked before
 * the server is asked, for the languages whose servers rename to anything they are given (tsserver and pyright
 * write `1abc`, `foo-bar` or `class` into every file); gopls, clangd and rust-analyzer check names themselves. A
 * JavaScript reserved word is a valid property name, so it is judged by parsing the result (see syntax-check.ts).
 */
export function invalidName(name: string, family: Family, privateName: boolean): string | undefined {
  if (/\s/.test(name)) return 'it contains whitespace';
  if (family === 'js') {
    const bare = privateName && name.startsWith('#') ? name.slice(1) : name;
    if (!JS_IDENTIFIER.test(bare)) return 'it is not a JavaScript identifier (a letter, `_` or `$`, then letters, digits, `_` or `$`)';
  }
  if (family === 'python') {
    if (!PYTHON_IDENTIFIER.test(name)) return 'it is not a Python identifier (a letter or `_`, then letters, digits or `_`)';
    if (PYTHON_KEYWORDS.has(name)) return 'it is a Python keyword';
  }
  return undefined;
}

/**
 * Why the symbol `name` cannot be renamed at all in a file of `family`, or undefined when it can: TypeScript's
 * `this` parameter, which tsserver renames into an ordinary parameter, changing every call's arguments.
 */
export function unrenamable(name: string, family: Family): string | undefined {
  if (family === 'js' && name === 'this') {
    return '`this` is a keyword, not a name: a `this` parameter only declares the type of `this`, and under any other name it would become a first argument every call must pass';
  }
  return undefined;
}
