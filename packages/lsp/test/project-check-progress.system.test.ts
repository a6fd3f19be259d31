import { type ProgressEvent, resultText } from '@agent-tools/core';
import { describe, expect, it } from 'vitest';
import { startRun } from './helpers.js';

const TSCONFIG = JSON.stringify({ compilerOptions: { strict: true, noEmit: true }, include: ['src'] });

describe('diagnostics "*" reports how far it is', () => {
  it('names each project as it is checked, counts them, and says for how long (typescript, two roots)', async () => {
    await using run = startRun(
      {
        'a/tsconfig.json': TSCONFIG,
        'a/src/index.ts': 'export const a: number = "one";\n',
        'b/tsconfig.json': TSCONFIG,
        'b/src/index.ts': 'export const b: string = 2;\n',
      },
      { builtins: ['typescript'] },
    );
    const events: ProgressEvent[] = [];
    const result = await run.registry.call('lsp', { action: 'diagnostics', file: '*' }, { onProgress: (e) => events.push(e) });
    expect(resultText(result)).toContain('(2 projects)');
    const messages = events.map((e) => e.message);
    expect(messages[0]).toBe('checking TypeScript/JavaScript at a (project 1 of 2)');
    expect(events[0]).toMatchObject({ tool: 'lsp', progress: 0, total: 2 });
    const second = events.find((e) => e.progress === 1);
    expect(second?.message).toMatch(/^checking TypeScript\/JavaScript at b( for \d+ s)? \(project 2 of 2\)$/);
    expect(events.every((e, i) => i === 0 || (e.progress ?? 0) >= (events[i - 1]?.progress ?? 0))).toBe(true);
  });
});
