import { describe, expect, it } from 'vitest';
import { startRun, text } from './helpers.js';

// Issue 22, item 6: after a write of a broken line whose diagnostics came late, and an edit that fixes the line
// before they were read, the edit's answer must not carry "Late diagnostics from an earlier write" about text no
// longer in the file. Real typescript-language-server; the inline budget is 1 ms so the first write is pending.
describe('late diagnostics of an older version', () => {
  it('are dropped when the file was written again before they were read', { timeout: 120_000 }, async () => {
    await using run = startRun(
      {
        'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, noEmit: true }, include: ['src'] }),
        'src/a.ts': 'export const a = 1;\n',
      },
      {},
      1,
    );
    await run.lsp({ action: 'diagnostics', file: 'src/a.ts' });
    const broken = await run.call('write', { path: 'src/a.ts', content: 'export const a = 1;\nconst b = ;\n' });
    expect(text(broken)).toContain('still pending');
    // Wait until the late answer is on the board, waiting for the next result.
    for (let i = 0; i < 200 && run.registry.notices.pending() === 0; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(run.registry.notices.pending()).toBe(1);
    const fixed = await run.call('write', { path: 'src/a.ts', content: 'export const a = 1;\nconst b = 2;\n' });
    expect(text(fixed)).not.toContain('Expression expected');
    expect(text(fixed)).not.toContain('Late diagnostics from an earlier write');
  });
});
