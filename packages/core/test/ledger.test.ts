import { describe, expect, it } from 'vitest';
import { DiagnosticsLedger } from '../src/diagnostics/ledger.js';
import { diag } from './helpers.js';

const F = '/w/src/a.ts';

describe('the diagnostics ledger', () => {
  it('reports every diagnostic of a file it has not seen', () => {
    const ledger = new DiagnosticsLedger();
    expect(ledger.update(F, [diag(F, 3, 'x is unused'), diag(F, 1, 'bad type')]).map((d) => d.line)).toEqual([1, 3]);
  });

  it('keeps the findings of different sources apart: the same message from a second server is new', () => {
    const ledger = new DiagnosticsLedger();
    ledger.update(F, [{ ...diag(F, 2, "Expected '===' and instead saw '=='."), source: 'eslint' }]);
    const both = [
      { ...diag(F, 2, "Expected '===' and instead saw '=='."), source: 'eslint' },
      { ...diag(F, 2, "Expected '===' and instead saw '=='."), source: 'biome' },
    ];
    expect(ledger.update(F, both).map((d) => d.source)).toEqual(['biome']);
  });

  it('does not report a message again when it only moved', () => {
    const ledger = new DiagnosticsLedger();
    ledger.update(F, [diag(F, 10, "Type 'string' is not assignable to type 'number'.")]);
    expect(ledger.update(F, [diag(F, 14, "Type 'string' is not assignable to type 'number'.")])).toEqual([]);
  });

  it('compares messages under a rename once they are rewritten, merging those that become the same', () => {
    const ledger = new DiagnosticsLedger();
    ledger.update(F, [diag(F, 3, 'Argument missing in function "merge_setting"'), diag(F, 9, 'Argument missing in function "merge_one_setting"')]);
    ledger.rewriteMessages((m) => m.replace('"merge_setting"', '"merge_one_setting"'));
    const after = [diag(F, 3, 'Argument missing in function "merge_one_setting"'), diag(F, 9, 'Argument missing in function "merge_one_setting"')];
    expect(ledger.update(F, after)).toEqual([]);
    // A third copy is still new.
    expect(ledger.update(F, [...after, diag(F, 12, 'Argument missing in function "merge_one_setting"')]).map((d) => d.line)).toEqual([12]);
  });

  it('reports a second copy of a known message as new, and picks the copy on the new line', () => {
    const ledger = new DiagnosticsLedger();
    ledger.update(F, [diag(F, 10, 'Cannot find name "foo".')]);
    const fresh = ledger.update(F, [diag(F, 10, 'Cannot find name "foo".'), diag(F, 30, 'Cannot find name "foo".')]);
    expect(fresh).toEqual([diag(F, 30, 'Cannot find name "foo".')]);
  });

  it('reports a message that was fixed and later comes back as new again', () => {
    const ledger = new DiagnosticsLedger();
    const problem = diag(F, 5, 'Missing return.');
    expect(ledger.update(F, [problem])).toHaveLength(1);
    expect(ledger.update(F, [])).toEqual([]);
    expect(ledger.update(F, [problem])).toEqual([problem]);
  });

  it('keys by severity, code and message: a change in any of them is new', () => {
    const ledger = new DiagnosticsLedger();
    ledger.update(F, [diag(F, 1, 'm')]);
    expect(ledger.update(F, [diag(F, 1, 'm', { severity: 'warning' })])).toHaveLength(1);
    expect(ledger.update(F, [diag(F, 1, 'm', { severity: 'warning', code: 'E2' })])).toHaveLength(1);
    expect(ledger.update(F, [diag(F, 1, 'm', { severity: 'warning', code: 'E2' })])).toHaveLength(0);
  });

  it('keeps files apart: the same message in another file is new', () => {
    const ledger = new DiagnosticsLedger();
    ledger.update(F, [diag(F, 1, 'm')]);
    expect(ledger.update('/w/src/b.ts', [diag('/w/src/b.ts', 1, 'm')])).toHaveLength(1);
  });

  it('is bounded: the least recently updated file is forgotten first, and keys per file are capped', () => {
    const ledger = new DiagnosticsLedger({ maxFiles: 2, maxKeysPerFile: 2 });
    ledger.update('/a', [diag('/a', 1, 'm')]);
    ledger.update('/b', [diag('/b', 1, 'm')]);
    ledger.update('/a', [diag('/a', 1, 'm')]);
    ledger.update('/c', [diag('/c', 1, 'm')]);
    expect([ledger.has('/a'), ledger.has('/b'), ledger.has('/c')]).toEqual([true, false, true]);
    expect(ledger.size).toBe(2);
    ledger.update('/a', [diag('/a', 1, 'one'), diag('/a', 2, 'two'), diag('/a', 3, 'three')]);
    // Only two keys were remembered, so one of the three messages counts as new on the next identical snapshot.
    expect(ledger.update('/a', [diag('/a', 1, 'one'), diag('/a', 2, 'two'), diag('/a', 3, 'three')])).toHaveLength(1);
  });
});
