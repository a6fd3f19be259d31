import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { seededRandom } from '@agent-tools/test-utils';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { added } from './differential/diagnostic-keys.js';
import { rxjs } from './differential/projects.js';
import { startRun, text } from './helpers.js';

// Issue 22, item 4: after a write, the files that import the written one are checked too, and what is new in them is
// reported. Generated: a random exported function of rxjs (fixed seed) gets a required parameter more; what the
// write reports as new, file by file, must be exactly the difference of a full project check (the TypeScript
// compiler over the whole project) before and after the write.
const SEED = 90_210;
const CASES = 3;

/** Errors and warnings of every file of the project, by workspace-relative path, as severity|code|message keys. */
function projectCheck(dir: string): Map<string, string[]> {
  const config = ts.readConfigFile(join(dir, 'tsconfig.json'), ts.sys.readFile).config as object;
  const parsed = ts.parseJsonConfigFileContent(config, ts.sys, dir);
  const program = ts.createProgram(parsed.fileNames, parsed.options);
  const byFile = new Map<string, string[]>();
  for (const d of ts.getPreEmitDiagnostics(program)) {
    if (!d.file || (d.category !== ts.DiagnosticCategory.Error && d.category !== ts.DiagnosticCategory.Warning)) continue;
    const file = relative(dir, d.file.fileName);
    const severity = d.category === ts.DiagnosticCategory.Error ? 'error' : 'warning';
    const key = `${severity}|TS${d.code}|${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
    byFile.set(file, [...(byFile.get(file) ?? []), key]);
  }
  return byFile;
}

/** The source with a required parameter added to the declaration of `name` (its parameter list found by balance). */
function withExtraParameter(source: string, name: string): string | undefined {
  const at = source.indexOf(`export function ${name}(`);
  if (at < 0) return undefined;
  let i = source.indexOf('(', at);
  const open = i;
  let depth = 0;
  for (; i < source.length; i++) {
    if (source[i] === '(') depth++;
    else if (source[i] === ')' && --depth === 0) break;
  }
  const params = source.slice(open + 1, i).trim();
  return `${source.slice(0, i)}${params ? ', ' : ''}extraArgument: number${source.slice(i)}`;
}

describe('dependents\' diagnostics after a write, against a full project check', () => {
  it('rxjs: a drawn exported function gets a required parameter; new diagnostics per file equal tsc\'s difference', { timeout: 900_000 }, async () => {
    await using run = startRun({}, { indexWaitMs: 300_000 }, 30_000, { dependents: { max: 500, budgetMs: 120_000 } });
    const files = rxjs.prepare(run.dir.path);
    const next = seededRandom(SEED);
    const candidates = files
      .filter((f) => /internal\/(util|operators)\//.test(f))
      .flatMap((f) => {
        const source = readFileSync(f, 'utf8');
        const names = [...source.matchAll(/^export function (\w+)\(/gm)].map((m) => m[1] as string);
        return names.filter((n) => names.filter((m) => m === n).length === 1).map((name) => ({ file: relative(run.dir.path, f), name }));
      });
    let done = 0;
    const mismatches: string[] = [];
    while (done < CASES && candidates.length > 0) {
      const c = candidates.splice(Math.floor(next() * candidates.length), 1)[0];
      if (!c) break;
      const path = join(run.dir.path, c.file);
      const original = readFileSync(path, 'utf8');
      const changed = withExtraParameter(original, c.name);
      if (!changed) continue;
      const before = projectCheck(run.dir.path);
      const result = await run.call('write', { path: c.file, content: changed });
      expect(result.isError, text(result)).toBe(false);
      const after = projectCheck(run.dir.path);
      const reported = (result.structured as { diagnostics: Array<{ file: string; state: string; newDiagnostics: Array<{ severity: string; code?: string; message: string }> }> }).diagnostics;
      const where = `${c.name} in ${c.file}`;
      expect(text(result), where).not.toMatch(/not checked/);
      let broke = 0;
      for (const file of new Set([...after.keys(), ...reported.map((r) => r.file)])) {
        const expected = added(after.get(file) ?? [], before.get(file) ?? []);
        if (expected.length > 0) broke++;
        const report = reported.find((r) => r.file === file);
        const got = (report?.newDiagnostics ?? []).map((d) => `${d.severity}|${d.code ?? ''}|${d.message}`).sort();
        if (JSON.stringify(got) !== JSON.stringify(expected)) mismatches.push(`${where}: ${file}: reported ${JSON.stringify(got)}, tsc ${JSON.stringify(expected)}`);
      }
      // Back as it was, for the next case (its report is not checked).
      writeFileSync(path, original);
      await run.call('write', { path: c.file, content: original });
      // A function no other file calls breaks nothing: such a draw does not count.
      if (broke > 0) done++;
    }
    expect(done).toBe(CASES);
    expect(mismatches).toEqual([]);
  });
});
