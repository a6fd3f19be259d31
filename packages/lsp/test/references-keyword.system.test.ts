import { describe, expect, it } from 'vitest';
import { startRun, text } from './helpers.js';

// tsserver answers references at a keyword (`function`, `class`, `async`) for the name the keyword declares. The
// answer must name what it lists: a model that asked about `function` would otherwise read the references of the
// function's name as references "to `function`".
const project = {
  'tsconfig.json': JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true }, include: ['src'] }),
  'package.json': '{"type":"module"}',
  'src/stock.ts': 'export function lowStock(count: number): boolean {\n  return count < 3;\n}\nexport class Shelf {\n  full = lowStock(1);\n}\n',
  'src/main.ts': "import { lowStock } from './stock.js';\n\nexport const warn = lowStock(2);\n",
};

describe('references at a keyword (typescript-language-server)', () => {
  it('names the declared name the server answered for, and lists its references', async () => {
    await using run = startRun(project);
    const atKeyword = await run.call('lsp', { action: 'references', file: 'src/stock.ts', line: 1, symbol: 'function' });
    expect(atKeyword.isError, text(atKeyword)).toBe(false);
    expect(text(atKeyword).split('\n')[0]).toBe(
      '4 references to `lowStock` (`function` on src/stock.ts:1 is not a name; the server answered for `lowStock` next to it) in 2 files:',
    );
    const atName = await run.call('lsp', { action: 'references', file: 'src/stock.ts', line: 1, symbol: 'lowStock' });
    expect(text(atName).split('\n')[0]).toBe('4 references to `lowStock` (src/stock.ts:1) in 2 files:');
    // The listed lines are the same either way.
    expect(text(atKeyword).split('\n').slice(1)).toEqual(text(atName).split('\n').slice(1));
  });
});
