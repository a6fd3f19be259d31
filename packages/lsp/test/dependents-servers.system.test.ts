import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { seededRandom, tempDir } from '@agent-tools/test-utils';
import { describe, expect, it } from 'vitest';
import { listSourceFiles } from '../src/discovery/root.js';
import { added, keysOf, keysOfReported } from './differential/diagnostic-keys.js';
import { DirectClient } from './differential/direct-client.js';
import { curlWithHeaders, goJson, type RealProject, requests } from './differential/projects.js';
import { startRun, text } from './helpers.js';

// Issue 22, item 4 on pyright, gopls and clangd (TypeScript: dependents-differential.system.test.ts). Generated: a function
// drawn with a fixed seed among those other files use gets a required parameter more, through the write tool; what
// the write reports as new, file by file (the written file and every dependent), must equal the difference of the
// server's own diagnostics of every file of the project before and after, the server driven directly on a copy.
// Projects: requests (Debian), Go's encoding/json (Debian), and curl's examples with libcurl's own headers in the
// project (Debian), where the written file is a header included through curl.h.
const SEED = 271_828;
const CASES = 2;

interface Draw {
  /** Workspace-relative path of the written file. */
  readonly file: string;
  readonly name: string;
}

interface Case {
  readonly project: RealProject;
  /** The files whose diagnostics are compared, workspace-relative. */
  readonly files: (dir: string) => string[];
  /** Functions that may be drawn: declared in one file, named in another. */
  readonly candidates: (dir: string) => Draw[];
  /** The source with a parameter added first to the declaration of `name`. */
  readonly change: (source: string, name: string) => string | undefined;
  /** pyright answers pull diagnostics completely; the others publish. */
  readonly pull: boolean;
}

function rel(dir: string, files: readonly string[]): string[] {
  return files.map((f) => relative(dir, f)).sort();
}

/** Declarations matched by `pattern` (group 1 the name) in `declaring`, kept when another file names them. */
function usedElsewhere(dir: string, declaring: readonly string[], all: readonly string[], pattern: RegExp): Draw[] {
  const texts = new Map(all.map((f) => [f, readFileSync(join(dir, f), 'utf8')]));
  const out: Draw[] = [];
  for (const file of declaring) {
    const names = [...(texts.get(file) as string).matchAll(pattern)].map((m) => m[1] as string);
    for (const name of new Set(names)) {
      if (names.filter((n) => n === name).length !== 1) continue;
      const word = new RegExp(`\\b${name}\\b`);
      if (all.some((other) => other !== file && word.test(texts.get(other) as string))) out.push({ file, name });
    }
  }
  return out;
}

/** Adds `parameter` first in the parameter list that follows `head` (the declaration's text up to its "("). */
function addFirst(source: string, head: RegExp, parameter: string): string | undefined {
  const match = head.exec(source);
  if (!match) return undefined;
  const open = match.index + match[0].length;
  const rest = source.slice(open);
  if (/^\s*(void)?\s*\)/.test(rest)) return `${source.slice(0, open)}${parameter}${rest.replace(/^\s*(void)?\s*/, '')}`;
  return `${source.slice(0, open)}${parameter}, ${rest}`;
}

const cases: Record<string, Case> = {
  pyright: {
    project: requests,
    pull: true,
    files: (dir) => rel(dir, listSourceFiles(dir, ['.py'], 1000).files),
    candidates: (dir) => {
      const all = rel(dir, listSourceFiles(dir, ['.py'], 1000).files);
      return usedElsewhere(dir, all.filter((f) => !f.endsWith('__init__.py')), all, /^def ([a-z]\w*)\(/gm);
    },
    change: (source, name) => addFirst(source, new RegExp(`^def ${name}\\(`, 'm'), 'extra_argument'),
  },
  gopls: {
    project: goJson,
    pull: false,
    files: (dir) => rel(dir, listSourceFiles(dir, ['.go'], 1000).files),
    candidates: (dir) => {
      const all = rel(dir, listSourceFiles(dir, ['.go'], 1000).files);
      return usedElsewhere(dir, all.filter((f) => !f.endsWith('_test.go')), all, /^func (\w+)\(/gm);
    },
    change: (source, name) => addFirst(source, new RegExp(`^func ${name}\\(`, 'm'), 'extraArgument int'),
  },
  clangd: {
    project: curlWithHeaders,
    pull: false,
    // Translation units and the written headers: a header opened alone is parsed with flags clangd guesses, which
    // differ between two clangd processes (header.h: "Unknown type name 'CURL'" in one, not the other).
    files: (dir) => rel(dir, listSourceFiles(dir, ['.c'], 1000).files).concat(['include/curl/easy.h', 'include/curl/multi.h']),
    candidates: (dir) => {
      const all = rel(dir, listSourceFiles(dir, ['.c', '.h'], 1000).files);
      return usedElsewhere(dir, ['include/curl/easy.h', 'include/curl/multi.h'], all.filter((f) => f.endsWith('.c')).concat(['include/curl/easy.h', 'include/curl/multi.h']), /^CURL_EXTERN [^(;]*?\b(\w+)\(/gm);
    },
    change: (source, name) => addFirst(source, new RegExp(`^CURL_EXTERN [^(;]*?\\b${name}\\(`, 'm'), 'int extra_argument'),
  },
};

/** Every compared file's diagnostics (keys), from the server driven directly on `dir`. */
async function serverDiagnostics(c: Case, dir: string, files: readonly string[]): Promise<Map<string, string[]>> {
  await using oracle = await DirectClient.start(dir, { ...c.project.server(dir), pullDiagnostics: c.pull });
  const paths = files.map((f) => join(dir, f));
  const found = c.pull ? await oracle.pulledFor(paths) : await oracle.publishedFor(paths);
  // clangd writes the declaration a call misses into the message, by absolute path: compared without the root.
  return new Map([...found].map(([path, list]) => [relative(dir, path), keysOf(list).map((k) => k.replaceAll(dir, '<root>'))]));
}

type Report = { file: string; state: string; newDiagnostics: Array<{ severity: string; code?: string; message: string }>; dependentOf?: string[] };

describe('dependents\' diagnostics after a write, against the server asked directly', () => {
  for (const [server, c] of Object.entries(cases)) {
    it(`${server}: a drawn function gets a parameter more; new diagnostics per file equal the server's own difference`, { timeout: 1_200_000 }, async () => {
      using oracleDir = tempDir({}, 'agent-tools-oracle-');
      c.project.prepare(oracleDir.path);
      const files = c.files(oracleDir.path);
      const before = await serverDiagnostics(c, oracleDir.path, files);
      const candidates = c.candidates(oracleDir.path);
      const next = seededRandom(SEED);

      // Budgets far above production's: the dependents' baselines take the inline budget, and every one is needed
      // here (what is new is the question, not how fast).
      await using run = startRun({}, { indexWaitMs: 300_000 }, 120_000, { dependents: { max: 500, budgetMs: 240_000 }, baselineBudgetMs: 120_000 });
      c.project.prepare(run.dir.path);
      let done = 0;
      let dependentsBroken = 0;
      const mismatches: string[] = [];
      while (done < CASES && candidates.length > 0) {
        const draw = candidates.splice(Math.floor(next() * candidates.length), 1)[0] as Draw;
        const original = readFileSync(join(oracleDir.path, draw.file), 'utf8');
        const changed = c.change(original, draw.name);
        if (!changed) continue;
        writeFileSync(join(oracleDir.path, draw.file), changed);
        const after = await serverDiagnostics(c, oracleDir.path, files);
        writeFileSync(join(oracleDir.path, draw.file), original);
        const expected = new Map(files.map((f) => [f, added(after.get(f) ?? [], before.get(f) ?? [])]));
        const broken = [...expected].filter(([f, list]) => f !== draw.file && list.length > 0).length;
        // A function whose change breaks no other file proves nothing about dependents: such a draw does not count.
        if (broken === 0) continue;

        const result = await run.call('write', { path: draw.file, content: changed });
        const where = `${draw.name} in ${draw.file}`;
        expect(result.isError, text(result)).toBe(false);
        expect(text(result), where).not.toMatch(/not checked|still pending|not known in time/);
        const reported = (result.structured as { diagnostics: Report[] }).diagnostics;
        for (const file of new Set([...files.filter((f) => (expected.get(f) ?? []).length > 0), ...reported.map((r) => r.file).filter((f) => files.includes(f))])) {
          const want = expected.get(file) ?? [];
          const got = keysOfReported(reported.find((r) => r.file === file)?.newDiagnostics ?? []).map((k) => k.replaceAll(run.dir.path, '<root>'));
          if (JSON.stringify(got) !== JSON.stringify(want)) mismatches.push(`${where}: ${file}: reported ${JSON.stringify(got)}, the server ${JSON.stringify(want)}`);
        }
        await run.call('write', { path: draw.file, content: original });
        dependentsBroken += broken;
        done++;
      }
      expect(done).toBe(CASES);
      expect(dependentsBroken).toBeGreaterThan(0);
      expect(mismatches).toEqual([]);
    });
  }
});
