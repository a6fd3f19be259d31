import { afterAll, describe, expect, it } from 'vitest';
import { createTreeSitterLoader } from '../src/index.js';
import { pythonAst, realWorkspace } from './real-code.js';

const loader = createTreeSitterLoader({ workers: 0 });
afterAll(() => loader.dispose());

const PARSER = '/usr/lib/python3.11/email/_header_value_parser.py';

describe('the parenthesize step never wraps twice (issue 21, item 2)', () => {
  for (const transform of [
    { T: { convert: { source: '$A', toCase: 'upperCase' } } },
    { T: { replace: { source: '$A', replace: '[aeiou]', by: '_' } } },
  ]) {
    it(`python email/_header_value_parser.py: rule value[$A:] -> $T (${Object.keys(transform.T)[0]}) writes (2).split, not ((2)).split`, async () => {
      await using t = realWorkspace(loader, [PARSER]);
      const result = await t.edit({ rule: JSON.stringify({ pattern: 'value[$A:]' }), transform: JSON.stringify(transform), rewrite: '$T', language: 'python' });
      expect(result.structured.parenthesized).toContainEqual({ file: '_header_value_parser.py', line: 1050, parts: ['the replacement'] });
      await t.accept();
      const after = t.read('_header_value_parser.py');
      expect(after).toContain("    tok, *remainder = (2).split('?=', 1)\n    if tok == 2:\n");
      expect(after).not.toMatch(/\(\(\d+\)\)/);
      pythonAst(t.dir.join('_header_value_parser.py'));
    });
  }

  it('the same with a pattern and a capture that is the whole template ($A), and with the capture already in parentheses', async () => {
    await using t = realWorkspace(loader, [PARSER]);
    await t.edit({ pattern: 'value[$A:]', rewrite: '$A', path: '_header_value_parser.py' });
    await t.accept();
    expect(t.read('_header_value_parser.py')).toContain("    tok, *remainder = (2).split('?=', 1)\n");
    await using u = realWorkspace(loader, [PARSER]);
    const wrapped = await u.edit({ pattern: 'value[$A:]', rewrite: '($A)', path: '_header_value_parser.py' });
    expect(wrapped.structured.parenthesized).toEqual([]);
    await u.accept();
    expect(u.read('_header_value_parser.py')).toContain("    tok, *remainder = (2).split('?=', 1)\n");
  });
});
