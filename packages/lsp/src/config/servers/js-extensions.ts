/**
 * The JavaScript and TypeScript file extensions with their LSP language ids: the one list tsserver, ESLint and Biome
 * serve, so a new extension reaches all three. Each server spreads them in its own order (status prints that order).
 */
export const JS_EXTENSIONS: Readonly<Record<string, string>> = Object.freeze({
  '.js': 'javascript',
  '.jsx': 'javascriptreact',
  '.mjs': 'javascript',
  '.cjs': 'javascript',
});

/** The TypeScript half of {@link JS_EXTENSIONS}'s family. */
export const TS_EXTENSIONS: Readonly<Record<string, string>> = Object.freeze({
  '.ts': 'typescript',
  '.tsx': 'typescriptreact',
  '.mts': 'typescript',
  '.cts': 'typescript',
});
