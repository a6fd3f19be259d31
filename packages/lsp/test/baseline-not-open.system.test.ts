import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { seededRandom, tempDir } from '@agent-tools/test-utils';
import { describe, expect, it } from 'vitest';
import { added, keysOf, keysOfReported } from './differential/diagnostic-keys.js';
import { DirectClient } from './differential/direct-client.js';
import { curl, goJson, type RealProject, requests } from './differential/projects.js';
import { startRun, text } from './helpers.js';

// Issue 22, item 5's second half: a file that was not open before a write gets a baseline from before the write,
// so the problems it already had are not reported as new — on pyright, gopls and clangd (TypeScript is proven by
// dependents-differential). Generated: files drawn with a fixed seed, each not open in the run, get a line with a
// new problem through the write tool; what the write calls new must be exactly the difference of the server's own
// diagnostics of the file before and after, the server driven directly on a copy. Go's and curl's sources compile
// cleanly, so each drawn file is first given an old problem on disk (before the run starts), which must stay old.
const SEED = 5150;
const FILES = 3;

interface Case {
  readonly project: RealProject;
  /** A line that adds one problem, numbered so each is distinct; `old` for the problem present before the run. */
  readonly problem: (k: number, old: boolean) => string;
  /** Whether drawn files need an old problem put in (a project whose files have none). */
  readonly injectOld: boolean;
}

const cases: Record<string, Case> = {
  pyright: { project: requests, injectOld: false, problem: (k, old) => `\n\n_gap_probe_${old ? 'old' : 'new'}_${k} = gap_undefined_${old ? 'old' : 'new'}_${k}\n` },
  gopls: { project: goJson, injectOld: true, problem: (k, old) => `\nvar _ = gapUndefined${old ? 'Old' : 'New'}${k}\n` },
  clangd: {
    project: curl,
    injectOld: true,
    problem: (k, old) => `\nstatic int gap_probe_${old ? 'old' : 'new'}_${k}(void) { return gap_undeclared_${old ? 'old' : 'new'}_${k}; }\n`,
  },
};

/** Every file's published diagnostics (keys), from the server driven directly on `dir`. */
async function serverDiagnostics(project: RealProject, dir: string, files: readonly string[]): Promise<Map<string, string[]>> {
  // pyright offers pull diagnostics, a complete answer; what it publishes first after an open may come before its check.
  const pull = project === requests;
  await using oracle = await DirectClient.start(dir, { ...project.server(dir), pullDiagnostics: pull });
  const published = pull ? await oracle.pulledFor(files) : await oracle.publishedFor(files);
  return new Map([...published].map(([path, list]) => [relative(dir, path), keysOf(list)]));
}

describe('a file not open before a write: its old problems are not new', () => {
  for (const [server, c] of Object.entries(cases)) {
    it(`${server}: drawn files written once each; new == the server's own before/after difference`, { timeout: 900_000 }, async () => {
      using oracleDir = tempDir({}, 'agent-tools-oracle-');
      const files = c.project.prepare(oracleDir.path);
      const next = seededRandom(SEED);
      let pool = files.map((f) => relative(oracleDir.path, f));
      // pyright: only files that have problems of their own before the write prove anything.
      const having = c.injectOld ? undefined : await serverDiagnostics(c.project, oracleDir.path, files);
      if (having) pool = pool.filter((f) => (having.get(f) ?? []).length > 0);
      const drawn: string[] = [];
      while (drawn.length < FILES && pool.length > 0) drawn.push(pool.splice(Math.floor(next() * pool.length), 1)[0] as string);
      expect(drawn).toHaveLength(FILES);
      if (c.injectOld) for (const [k, f] of drawn.entries()) appendFileSync(join(oracleDir.path, f), c.problem(k, true));
      const paths = drawn.map((f) => join(oracleDir.path, f));
      // Asked the same way as after (the same files open): pyright's answers depend on which files are open.
      const before = await serverDiagnostics(c.project, oracleDir.path, paths);
      const originals = new Map(drawn.map((f) => [f, readFileSync(join(oracleDir.path, f), 'utf8')]));
      for (const [k, f] of drawn.entries()) appendFileSync(join(oracleDir.path, f), c.problem(k, false));
      const after = await serverDiagnostics(c.project, oracleDir.path, paths);

      // Dependents off: nothing but the written file is opened, so each drawn file is not open before its write.
      await using run = startRun({}, { indexWaitMs: 300_000 }, 30_000, { dependents: false, baselineBudgetMs: 120_000 });
      c.project.prepare(run.dir.path);
      for (const [f, original] of originals) writeFileSync(join(run.dir.path, f), original);
      for (const [k, f] of drawn.entries()) {
        const open = run.supervisor.running().some((s) => s.documents.get(join(run.dir.path, f)) !== undefined);
        expect(open, `${f} is open before its write`).toBe(false);
        const old = before.get(f) ?? [];
        expect(old.length, `${f} has no problem before the write`).toBeGreaterThan(0);
        const result = await run.call('write', { path: f, content: (originals.get(f) as string) + c.problem(k, false) });
        const report = (result.structured as { diagnostics: Array<{ file: string; state: string; unknownBefore?: unknown; newDiagnostics: Array<{ severity: string; code?: string; message: string }> }> }).diagnostics.find((r) => r.file === f);
        expect(report?.state, text(result)).toBe('checked');
        expect(report?.unknownBefore, text(result)).toBeUndefined();
        const expected = added(after.get(f) ?? [], old);
        expect(expected.length, `${f}: the added line adds no problem`).toBeGreaterThan(0);
        expect(keysOfReported(report?.newDiagnostics ?? []), `${f}: ${text(result)}`).toEqual(expected);
      }
    });
  }
});
