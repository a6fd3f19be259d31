import { isAbsolute, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { seededRandom, tempDir } from '@agent-tools/test-utils';
import { describe, expect, it } from 'vitest';
import type { CallHierarchyIncomingCall, CallHierarchyItem, Location } from 'vscode-languageserver-protocol';
import { pathLabel } from '../src/format/outside-label.js';
import { DirectClient } from './differential/direct-client.js';
import { type Picked, pick } from './differential/positions.js';
import { curl, goJson, type RealProject, requests, rxjs } from './differential/projects.js';
import { type Run, startRun, text } from './helpers.js';

// The paging differential: for the positions with the most references among those drawn with a fixed seed from
// real code, every page of `references` (and of `incoming_calls`) concatenated must be exactly the full list the
// same server gives when asked directly, each location once; a cut page must name every file of the list; and a
// `path` filter must give exactly the server's locations in that file.
const SEED = 31_337;
const DRAWN = 8;

interface Loc {
  readonly file: string;
  readonly line: number;
  readonly column: number;
}

function key(dir: string, uri: string, line: number, character: number): string {
  const path = fileURLToPath(uri);
  const rel = relative(dir, path);
  return `${rel.startsWith('..') || isAbsolute(rel) ? pathLabel(path, dir) : rel}:${line + 1}:${character + 1}`;
}

/** Every page of a list action, concatenated, with the text of each page. */
async function allPages(run: Run, args: Record<string, unknown>): Promise<{ keys: string[]; pages: string[]; totals: number[] }> {
  const keys: string[] = [];
  const pages: string[] = [];
  const totals: number[] = [];
  let offset: number | undefined = 0;
  while (offset !== undefined && pages.length < 100) {
    const result = await run.lsp({ ...args, offset });
    expect(result.isError, text(result)).toBe(false);
    const data = result.structured as { total: number; next?: number; locations: Loc[] };
    pages.push(text(result));
    totals.push(data.total);
    keys.push(...data.locations.map((l) => `${l.file}:${l.line}:${l.column}`));
    offset = data.next;
    if (offset !== undefined) expect(text(result)).toContain(`"offset":${offset}`);
  }
  return { keys, pages, totals };
}

describe.each([rxjs, requests, goJson, curl])('paging against the server driven directly: $name', (project: RealProject) => {
  it('all pages concatenated are the full list; a cut page names every file; path keeps one file', { timeout: 900_000 }, async () => {
    using oracleDir = tempDir({}, 'agent-tools-oracle-');
    const oracleFiles = project.prepare(oracleDir.path);
    await using oracle = await DirectClient.start(oracleDir.path, project.server(oracleDir.path));
    oracle.open(oracleFiles[0] as string);
    await oracle.idle();
    const next = seededRandom(SEED);
    const sample = oracleFiles.filter(() => next() < 0.5).slice(0, 40);
    const picked = pick(oracleDir.path, sample.length > 0 ? sample : oracleFiles, DRAWN, next).filter((p) => p.category !== 'import');

    // The oracle's references of every drawn position; the two with the most are paged.
    const counted: Array<{ p: Picked; refs: string[] }> = [];
    for (const p of picked) {
      const uri = oracle.open(join(oracleDir.path, p.file));
      // gopls answers some positions (a package clause, a label) with an error: those are not paged.
      const answer = await oracle
        .stable<Location[] | null>('textDocument/references', { textDocument: { uri }, position: p.position, context: { includeDeclaration: true } })
        .catch(() => undefined);
      if (answer === undefined) continue;
      counted.push({ p, refs: [...new Set((answer ?? []).map((l) => key(oracleDir.path, l.uri, l.range.start.line, l.range.start.character)))] });
    }
    counted.sort((a, b) => b.refs.length - a.refs.length);
    const chosen = counted.slice(0, 2);
    // Paging is exercised: the largest list is longer than one page.
    expect(chosen[0]?.refs.length ?? 0).toBeGreaterThan(50);

    await using run = startRun({}, { indexWaitMs: 300_000 });
    project.prepare(run.dir.path);
    for (const { p, refs } of chosen) {
      const where = `references at ${p.file}:${p.line} \`${p.symbol}\``;
      const args = { action: 'references', file: p.file, line: p.line, symbol: p.symbol, occurrence: p.occurrence };
      const { keys, pages, totals } = await allPages(run, args);
      expect(new Set(keys).size, `${where}: a location is listed twice across pages`).toBe(keys.length);
      expect([...keys].sort(), where).toEqual([...refs].sort());
      expect(new Set(totals), where).toEqual(new Set([refs.length]));
      if (pages.length > 1) {
        // The first page names every file of the list, with its lines or in the "not shown" line.
        const files = new Set(refs.map((r) => r.replace(/:\d+:\d+$/, '')));
        for (const file of files) expect(pages[0], `${where}: ${file} is not named on the first page`).toContain(file);
      }
      // A path filter keeps exactly the server's locations in that file.
      const files = [...new Set(refs.map((r) => r.replace(/:\d+:\d+$/, '')))].filter((f) => !f.includes(' ') && !f.startsWith('…'));
      const one = files[Math.floor(next() * files.length)];
      if (one) {
        const filtered = await allPages(run, { ...args, path: one });
        expect([...filtered.keys].sort(), `${where} with path ${one}`).toEqual(refs.filter((r) => r.startsWith(`${one}:`)).sort());
      }
    }

    // Incoming calls, where the server has a call hierarchy: pages concatenated equal its call sites. Not for
    // clangd 19: two of its processes over the same files name different files for the same call ranges (both
    // outside the caller), so there is no one answer to compare with.
    for (const { p } of project === curl ? [] : counted.slice(0, 4)) {
      const uri = oracle.open(join(oracleDir.path, p.file));
      const items = await oracle.stable<CallHierarchyItem[] | null>('textDocument/prepareCallHierarchy', { textDocument: { uri }, position: p.position }).catch(() => null);
      if (!items || items.length === 0) continue;
      // Asked until two answers agree as sets (gopls lists callers in a different order each time).
      const ask = async (): Promise<string[]> => {
        const sites = new Set<string>();
        for (const item of items) {
          const calls = (await oracle.ask<CallHierarchyIncomingCall[] | null>('callHierarchy/incomingCalls', { item })) ?? [];
          for (const call of calls) for (const range of call.fromRanges) sites.add(key(oracleDir.path, call.from.uri, range.start.line, range.start.character));
        }
        return [...sites].sort();
      };
      let sites = await ask();
      for (let i = 0; i < 5; i++) {
        const again = await ask();
        if (JSON.stringify(again) === JSON.stringify(sites)) break;
        sites = again;
      }
      const { keys } = await allPages(run, { action: 'incoming_calls', file: p.file, line: p.line, symbol: p.symbol, occurrence: p.occurrence });
      expect(new Set(keys).size, `incoming_calls at ${p.file}:${p.line}: a call site is listed twice`).toBe(keys.length);
      const got = [...keys].sort();
      const where = `incoming_calls at ${p.file}:${p.line} \`${p.symbol}\``;
      expect({ extra: got.filter((k) => !sites.includes(k)), missing: sites.filter((k) => !got.includes(k)) }, where).toEqual({ extra: [], missing: [] });
    }
  });
});
