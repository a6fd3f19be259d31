import { readFileSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { approveAll, createRegistry, defineTool, resultText, textResult, withFileLock } from '../src/index.js';
import { deferred, scratch } from './helpers.js';

/**
 * A run that ends (SIGTERM, an MCP session closed) while a tool is writing several files: the harness exits once the
 * registry is disposed, so a dispose that does not wait leaves the change half made (a rename seen in 69 of 80 files,
 * eleven temporaries in the tree). Disposing waits for the file writes under way to finish, whole.
 */
describe('dispose while files are being written', () => {
  it('waits for every writer holding a file lock before it resolves', async () => {
    using dir = scratch();
    const [a, b] = [join(dir.path, 'a.ts'), join(dir.path, 'b.ts')];
    writeFileSync(a, 'old\n');
    writeFileSync(b, 'old\n');
    const halfway = deferred<void>();
    const gate = deferred<void>();
    const tool = defineTool({
      name: 'rename_both',
      tier: 'write',
      description: 'Writes two files under their lock.',
      parallelSafe: false,
      parameters: z.object({}),
      execute: () =>
        withFileLock([a, b], async () => {
          await writeFile(a, 'new\n');
          halfway.resolve();
          await gate.promise;
          await writeFile(b, 'new\n');
          return textResult('Renamed in 2 files.');
        }),
    });
    const registry = createRegistry({ tools: [tool], approve: approveAll });
    const call = registry.call('rename_both', {});
    await halfway.promise;
    let disposed = false;
    const disposing = registry.dispose().then(() => {
      disposed = true;
    });
    // Without waiting, dispose is done within a few turns; the writer cannot finish before the gate opens.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(disposed, 'dispose resolved while a file write was half done').toBe(false);
    gate.resolve();
    await disposing;
    expect([readFileSync(a, 'utf8'), readFileSync(b, 'utf8')]).toEqual(['new\n', 'new\n']);
    // The call was cancelled, yet its files were written: the answer must not read as "nothing was written".
    expect(resultText(await call)).toBe(
      'rename_both was cancelled because the run ended. Files it had begun to write may have been written all the same: check them before calling it again.',
    );
  });
});
