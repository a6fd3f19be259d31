import { writeFileSync } from 'node:fs';
import { tempDir } from '@agent-tools/test-utils';
import { describe, expect, it } from 'vitest';
import { LspError } from '../src/errors.js';
import { fakeServer, startRun, text } from './helpers.js';

// An additional server (ESLint loading a slow configuration) whose part of a baseline ran out of time, at a moment
// that ends before the baseline's own deadline, or failed otherwise: it knows nothing of the file before the write.
// Its findings after the write were once called new, as if it had answered "none"; CI met it with real ESLint.
// Scripted servers (real processes): a primary that publishes nothing, an additional whose first answer fails.
const lint = { range: { start: { line: 0, character: 0 }, end: { line: 0, character: 5 } }, severity: 2 as const, message: 'old style', code: 'L1', source: 'lint' };

describe('a baseline whose additional server did not answer', () => {
  // A timeout that ends before the baseline's deadline, a server that exited, a request it failed: none is "none".
  for (const code of ['timeout', 'server_exited', 'request_failed'] as const) {
    it(`(${code}) is no baseline: what that server reports after the write is not called new`, async () => {
      using scripts = tempDir({}, 'agent-tools-fake-');
      const primary = scripts.join('primary.json');
      writeFileSync(primary, JSON.stringify({ capabilities: { textDocumentSync: 1 }, publishOnSync: [] }));
      const additional = scripts.join('additional.json');
      writeFileSync(additional, JSON.stringify({ capabilities: { textDocumentSync: 1 } }));
      let pulls = 0;
      const linter = fakeServer(additional, {
        id: 'lint',
        name: 'lint-server',
        role: 'additional',
        async pullDiagnostics() {
          pulls++;
          if (pulls === 1) throw new LspError(code, 'lint-server did not answer.');
          return [lint];
        },
      });
      await using run = startRun({ 'fake.json': '{}', 'a.fake': 'hello world\n' }, { builtins: false, servers: [fakeServer(primary), linter] });
      const written = text(await run.call('write', { path: 'a.fake', content: 'hello there\n' }));
      expect(pulls).toBe(2);
      expect(written).not.toContain('New diagnostics');
      expect(written).toContain('Diagnostics of a.fake from lint-server from before the write were not known in time');
      expect(written).toContain('1:1 warning L1: old style [lint]');
    });
  }
});
