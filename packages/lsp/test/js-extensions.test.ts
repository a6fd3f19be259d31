import { describe, expect, it } from 'vitest';
import { biomeServer } from '../src/config/servers/biome.js';
import { eslintServer } from '../src/config/servers/eslint.js';
import { typescriptServer } from '../src/config/servers/typescript.js';

// The JavaScript/TypeScript extensions live in one place (src/config/servers/js-extensions.ts); each server lists them
// in its own order, which status prints: the order and the language ids are pinned here.
const TS = [
  ['.ts', 'typescript'],
  ['.tsx', 'typescriptreact'],
  ['.mts', 'typescript'],
  ['.cts', 'typescript'],
];
const JS = [
  ['.js', 'javascript'],
  ['.jsx', 'javascriptreact'],
  ['.mjs', 'javascript'],
  ['.cjs', 'javascript'],
];

describe('the JavaScript/TypeScript extensions of tsserver, ESLint and Biome', () => {
  it('are the same extensions with the same language ids, each server in its status order', () => {
    expect(Object.entries(typescriptServer.extensions)).toEqual([...TS, ...JS]);
    expect(Object.entries(eslintServer.extensions)).toEqual([...JS, ...TS]);
    expect(Object.entries(biomeServer.extensions)).toEqual([...JS, ...TS, ['.json', 'json'], ['.jsonc', 'jsonc'], ['.css', 'css']]);
  });
});
