import { tempDir } from '@agent-tools/test-utils';
import { afterAll, describe, expect, it } from 'vitest';
import { oracleRuleLocations } from './differential/oracle.js';

/**
 * The full-size rule differential stalled on haskell (and overflowed on python): ast-grep prints the node an
 * `inside` rule climbed to (there, the whole file) as a label of every match, so `{ any: [local_binds, variable],
 * inside: haskell }` over 60 hugs files printed 261 MB, and the 148 rules together 561 MB, more than Node's
 * largest string. The buffered oracle then threw in execFile's exit handler, outside any promise, and waited
 * forever. The same shape at a smaller scale: 3,000 identifiers inside a 116 KB file print about 700 MB.
 */
describe('the ast-grep oracle streams its output', () => {
  const lines = Array.from({ length: 3000 }, (_, i) => `let v${i} = 0; // ${'x'.repeat(20)}`);
  const dir = tempDir({ 'a.js': lines.join('\n') });
  afterAll(() => dir.remove());

  it('gets every match of a scan that prints more than Node can hold in one string', { timeout: 120_000 }, async () => {
    const rules = [{ rule: { kind: 'identifier', inside: { kind: 'program', stopBy: 'end' } } }, { rule: { kind: 'number' } }];
    const { found, refused } = await oracleRuleLocations(dir.path, 'javascript', rules);
    expect(refused.size).toBe(0);
    const identifiers = found.get(0) ?? [];
    expect(identifiers).toHaveLength(3000);
    // `let v0` starts the file: its identifier is bytes 4-6.
    expect(identifiers).toContain('a.js@4-6');
    expect(found.get(1)).toHaveLength(3000);
  });

  it('still names a rule ast-grep refuses, and finds with the others', { timeout: 120_000 }, async () => {
    const rules = [{ rule: { kind: 'no_such_kind' } }, { rule: { kind: 'number' } }];
    const { found, refused } = await oracleRuleLocations(dir.path, 'javascript', rules);
    expect([...refused.keys()]).toEqual([0]);
    expect(refused.get(0)).toMatch(/Cannot parse rule/);
    expect(found.get(1)).toHaveLength(3000);
  });
});
