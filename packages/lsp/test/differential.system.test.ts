import { isAbsolute, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { seededRandom, tempDir } from '@agent-tools/test-utils';
import { describe, expect, it } from 'vitest';
import type { Hover, Location, LocationLink } from 'vscode-languageserver-protocol';
import { hoverData, relativeLinks } from '../src/format/hover.js';
import { pathLabel } from '../src/format/outside-label.js';
import { DirectClient } from './differential/direct-client.js';
import { pick } from './differential/positions.js';
import { curl, goJson, type RealProject, requests, rxjs } from './differential/projects.js';
import { startRun, text } from './helpers.js';

// The differential test: positions drawn with a fixed seed from real code no one here wrote (calls, members,
// imports, types, plain names), asked of the lsp tool on a cold server (a fresh run, no warm-up) and of the same
// server driven directly (warmed until idle, each answer asked until it is stable). Definition, references (with
// the cap) and hover must agree.
const SEED = 20_250_611;
const PER_CATEGORY = 3;
const ACTIONS = ['definition', 'references', 'hover'] as const;

type Key = string;

function keyOf(dir: string, uri: string, line: number, character: number): Key {
  const path = fileURLToPath(uri);
  const rel = relative(dir, path);
  const file = rel.startsWith('..') || isAbsolute(rel) ? pathLabel(path, dir) : rel;
  return `${file}:${line + 1}:${character + 1}`;
}

/** The oracle's locations, as the protocol defines them: a link's selection range is where the name is. */
function oracleLocations(dir: string, answer: Location | Location[] | LocationLink[] | null): Set<Key> {
  const list = answer === null ? [] : Array.isArray(answer) ? answer : [answer];
  return new Set(
    (list as Array<Location | LocationLink>).map((item) => {
      if ('targetUri' in item) {
        const range = item.targetSelectionRange ?? item.targetRange;
        return keyOf(dir, item.targetUri, range.start.line, range.start.character);
      }
      return keyOf(dir, item.uri, item.range.start.line, item.range.start.character);
    }),
  );
}

const METHODS = { definition: 'textDocument/definition', references: 'textDocument/references', hover: 'textDocument/hover' } as const;

describe.each([rxjs, requests, goJson, curl])('differential against the server driven directly: $name', (project: RealProject) => {
  it('definition, references and hover agree at positions drawn from the code, asked cold', { timeout: 600_000 }, async () => {
    using oracleDir = tempDir({}, 'agent-tools-oracle-');
    const oracleFiles = project.prepare(oracleDir.path);
    await using oracle = await DirectClient.start(oracleDir.path, project.server(oracleDir.path));
    oracle.open(oracleFiles[0] as string);
    await oracle.idle();
    const next = seededRandom(SEED);
    const sample = oracleFiles.filter(() => next() < 0.5).slice(0, 40);
    const picked = pick(oracleDir.path, sample.length > 0 ? sample : oracleFiles, PER_CATEGORY, next);
    expect(picked.length).toBeGreaterThanOrEqual(10);

    // The tool's run starts now, on its own copy: cold, the way a harness meets a new project.
    await using run = startRun({}, { indexWaitMs: 300_000 });
    project.prepare(run.dir.path);
    const mismatches: string[] = [];
    for (const p of picked) {
      for (const action of ACTIONS) {
        const where = `${action} at ${p.file}:${p.line} \`${p.symbol}\` #${p.occurrence} (${p.category})`;
        const result = await run.lsp({ action, file: p.file, line: p.line, symbol: p.symbol, occurrence: p.occurrence });
        const uri = oracle.open(join(oracleDir.path, p.file));
        const params = { textDocument: { uri }, position: p.position, ...(action === 'references' ? { context: { includeDeclaration: true } } : {}) };
        const expected = await oracle.stable<unknown>(METHODS[action], params);
        const problem = compare(action, oracleDir.path, result, expected);
        if (problem) mismatches.push(`${where}: ${problem}`);
      }
    }
    expect(mismatches, `${mismatches.length} of ${picked.length * ACTIONS.length} answers differ`).toEqual([]);
  });
});

function compare(action: (typeof ACTIONS)[number], dir: string, result: Awaited<ReturnType<ReturnType<typeof startRun>['lsp']>>, expected: unknown): string | undefined {
  if (result.isError) return `the tool failed: ${text(result).slice(0, 300)}`;
  if (/^INCOMPLETE/.test(text(result))) return `the tool answered before the server was ready: ${text(result).split('\n')[0]}`;
  const data = result.structured as { total?: number; note?: string; locations?: Array<{ file: string; line: number; column: number }>; signature?: string; documentation?: string };
  if (action === 'hover') {
    const raw = hoverData(expected as Hover | null);
    const want = raw ? relativeLinks(raw, dir) : { signature: '', documentation: '' };
    if (want.signature !== data.signature || want.documentation !== data.documentation) {
      return `hover differs: tool ${JSON.stringify([data.signature, data.documentation]).slice(0, 200)} vs server ${JSON.stringify([want.signature, want.documentation]).slice(0, 200)}`;
    }
    return undefined;
  }
  const want = oracleLocations(dir, expected as Location | Location[] | LocationLink[] | null);
  const got = (data.locations ?? []).map((l) => `${l.file}:${l.line}:${l.column}`);
  if ((data.total ?? 0) !== want.size) return `total ${data.total} vs ${want.size} (${[...want].slice(0, 3).join(', ')} …; tool ${got.slice(0, 3).join(', ')})`;
  const extra = got.filter((k) => !want.has(k));
  if (extra.length > 0) return `the tool lists ${extra.slice(0, 3).join(', ')} that the server does not`;
  const cap = 50;
  if (want.size > cap && data.note !== `${cap} of ${want.size} shown`) return `the cap is not stated: ${data.note}`;
  if (want.size <= cap && got.length !== want.size) return `the tool shows ${got.length} of ${want.size}`;

  return undefined;
}
