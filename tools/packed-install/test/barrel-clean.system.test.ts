import { describe, expect, it } from 'vitest';
import { barrels, unusedBarrelExports } from '../src/barrel-usage.js';

describe('barrels', () => {
  it('finds the barrel of every published package, and the names each re-exports', () => {
    const specs = barrels().map((b) => b.spec);
    expect(specs).toEqual(expect.arrayContaining(['@agent-tools/core', '@agent-tools/core/internal', '@agent-tools/lsp', '@agent-tools/vibe']));
    expect(barrels().find((b) => b.spec === '@agent-tools/core')?.names).toContain('createRegistry');
  });

  it('tells a name nothing imports or documents from one that a package imports or a README shows', () => {
    const core = barrels().find((b) => b.spec === '@agent-tools/core');
    if (!core) throw new Error('no barrel for @agent-tools/core');
    // defineTool: imported by every package; toGeminiTools: shown in core's README.
    expect(unusedBarrelExports({ ...core, names: ['defineTool', 'toGeminiTools', 'noSuchNameAnywhere'] })).toEqual(['noSuchNameAnywhere']);
  });

  // A barrel export is API someone must keep. One that no other package, tool or benchmark imports and no README
  // shows is used by nothing, or by tests only (which import from the source file instead): it goes.
  it.each(barrels().map((b) => [b.spec, b]))('%s re-exports only what another package or a README uses', (_spec, barrel) => {
    expect(unusedBarrelExports(barrel)).toEqual([]);
  });
});
