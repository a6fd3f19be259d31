import { approveAll, createRegistry, type ProgressEvent, resultText } from '@agent-tools/core';
import { tempDir } from '@agent-tools/test-utils';
import { describe, expect, it } from 'vitest';
import { astTools, createTreeSitterLoader } from '../src/index.js';

const FILES = 400;

describe('ast_grep over a large tree reports how far it is', () => {
  it.each([
    ['the worker pool', { inlineBytes: 0 }],
    ['inline search', { workers: 0 }],
  ])('with %s: listing the files, then files searched of all, in order', async (_name, options) => {
    using dir = tempDir(
      Object.fromEntries(
        Array.from({ length: FILES }, (_, i) => [`src/m${i}.ts`, `export function f${i}(x: number) {\n  console.log("m${i}", x);\n}\n`]),
      ),
    );
    await using registry = createRegistry({
      resources: { cwd: dir.path, treeSitter: createTreeSitterLoader(options) },
      factories: [astTools],
      approve: approveAll,
      progressIntervalMs: 0,
    });
    const events: ProgressEvent[] = [];
    const result = await registry.call(
      'ast_grep',
      { pattern: 'console.log($$$A)', path: 'src', language: 'typescript' },
      { onProgress: (e) => events.push(e) },
    );
    expect(resultText(result)).toMatch(new RegExp(`${FILES} matches|of ${FILES}`));
    expect(events[0]).toMatchObject({ tool: 'ast_grep', message: 'listing the typescript files under src' });
    const counts = events.slice(1);
    expect(counts.length).toBeGreaterThanOrEqual(2);
    for (const [i, event] of counts.entries()) {
      expect(event).toMatchObject({ total: FILES, message: `searched ${event.progress} of ${FILES} files` });
      if (i > 0) expect(event.progress).toBeGreaterThan(counts[i - 1]?.progress ?? 0);
    }
    expect(counts.at(-1)?.progress).toBe(FILES);
  });
});
