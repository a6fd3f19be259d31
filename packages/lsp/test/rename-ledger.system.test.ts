import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { seededRandom } from '@agent-tools/test-utils';
import { describe, expect, it } from 'vitest';
import { listSourceFiles } from '../src/discovery/root.js';
import { added } from './differential/diagnostic-keys.js';
import { type RealProject, requests, rxjs } from './differential/projects.js';
import { type Run, startRun, text } from './helpers.js';

// Issue 22, item 5: a rename must not report old diagnostics as new because their message names the renamed symbol.
// Generated: every top-level function of a module is renamed in turn with lsp_rename; what the write hook reports as
// new in each file is compared with a diff of the server's own diagnostics of that file before and after the
// rename (the old messages with the rename applied). Every file that mentions the name before is compared.
interface Reported {
  readonly file: string;
  readonly state: string;
  readonly newDiagnostics: ReadonlyArray<{ severity: string; code?: string | number; message: string }>;
}

type Keyed = { severity: string; code?: string | number; message: string };

const key = (d: Keyed): string => `${d.severity}|${d.code ?? ''}|${d.message}`;

function wholeWord(from: string): RegExp {
  return new RegExp(`(?<![\\p{ID_Continue}$])${from.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{ID_Continue}$])`, 'gu');
}

/** The server's errors and warnings of a file now, as keys. */
async function serverKeys(run: Run, file: string): Promise<string[]> {
  const result = await run.lsp({ action: 'diagnostics', file });
  expect(result.isError, text(result)).toBe(false);
  const data = result.structured as { total: number; diagnostics: Keyed[] };
  expect(data.diagnostics.length, `${file}: diagnostics were cut`).toBe(data.total);
  return data.diagnostics.map(key);
}

async function renameEach(project: RealProject, module: string, functions: RegExp, extension: string, max: number, seed: number): Promise<void> {
  // A generous budget: this is about what is new, not about time, and the machine may be loaded.
  await using run = startRun({}, { indexWaitMs: 300_000 }, 60_000);
  project.prepare(run.dir.path);
  const files = listSourceFiles(run.dir.path, [extension], 2000).files;
  const source = readFileSync(join(run.dir.path, module), 'utf8').split('\n');
  const next = seededRandom(seed);
  let declared = source.flatMap((line, index) => {
    const match = functions.exec(line);
    return match?.[1] ? [{ name: match[1], line: index + 1 }] : [];
  });
  // Drawn with the seed when the module has more than `max`.
  while (declared.length > max) declared.splice(Math.floor(next() * declared.length), 1);
  declared = declared.sort((a, b) => a.line - b.line);
  expect(declared.length).toBeGreaterThan(0);
  const mismatches: string[] = [];
  let checked = 0;
  for (const [index, fn] of declared.entries()) {
    const to = `${fn.name}_r${index}`;
    const mentioning = files.filter((f) => wholeWord(fn.name).test(readFileSync(f, 'utf8'))).map((f) => relative(run.dir.path, f));
    const before = new Map<string, string[]>();
    for (const file of mentioning) before.set(file, (await serverKeys(run, file)).map((k) => k.replace(wholeWord(fn.name), to)));
    const result = await run.call('lsp_rename', { file: module, line: fn.line, symbol: fn.name, new_name: to });
    if (result.isError) {
      mismatches.push(`${fn.name}: the rename was refused: ${text(result).slice(0, 200)}`);
      continue;
    }
    const reported = ((result.structured as { diagnostics?: Reported[] }).diagnostics ?? []) as Reported[];
    for (const file of mentioning) {
      const after = await serverKeys(run, file);
      const expected = added(after, before.get(file) ?? []);
      const report = reported.find((r) => r.file === file);
      if (!report) {
        // A file the rename did not touch is not checked by the hook: nothing may have appeared in it either.
        if (expected.length > 0) mismatches.push(`${fn.name} → ${to}: ${file} was not checked, and gained ${expected.join('; ')}`);
        continue;
      }
      expect(report.state, `${file} after renaming ${fn.name}`).toBe('checked');
      checked++;
      const got = report.newDiagnostics.map(key).sort();
      if (JSON.stringify(got) !== JSON.stringify(expected)) {
        mismatches.push(`${fn.name} → ${to} in ${file}: reported new ${JSON.stringify(got)}, the server's diff ${JSON.stringify(expected)}`);
      }
    }
  }
  expect(mismatches).toEqual([]);
  expect(checked).toBeGreaterThan(0);
}

describe('the ledger after lsp_rename: new is what the server newly reports', () => {
  it('requests: every top-level function of sessions.py and utils.py renamed in turn (pyright)', { timeout: 900_000 }, async () => {
    await renameEach(requests, 'requests/sessions.py', /^def ([A-Za-z_]\w*)\(/, '.py', 12, 11);
    await renameEach(requests, 'requests/utils.py', /^def ([A-Za-z_]\w*)\(/, '.py', 12, 12);
  });

  it('rxjs: exported functions of util modules renamed in turn (tsserver)', { timeout: 900_000 }, async () => {
    await renameEach(rxjs, 'internal/util/args.ts', /^export function ([A-Za-z_]\w*)/, '.ts', 6, 13);
    await renameEach(rxjs, 'internal/util/isScheduler.ts', /^export function ([A-Za-z_]\w*)/, '.ts', 6, 14);
  });
});
