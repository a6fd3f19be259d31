import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { seededRandom, tempDir } from '@agent-tools/test-utils';
import { describe, expect, it } from 'vitest';
import type { Location, LocationLink } from 'vscode-languageserver-protocol';
import { DirectClient } from './differential/direct-client.js';
import { pick } from './differential/positions.js';
import { curl, goJson, type RealProject, requests, rxjs } from './differential/projects.js';
import { startRun, text } from './helpers.js';

// Issue 22, item 2: a location outside the working directory (a library's declaration, the standard library, a
// system header) is shown with the text of its line, the same text the file has there, under a short label naming
// the package and the path inside it, never an absolute path. Positions drawn with a fixed seed; the server driven
// directly says where the declarations are.
const SEED = 4_242;
const WANTED = 6;

describe.each([rxjs, requests, goJson, curl])('locations outside the working directory: $name', (project: RealProject) => {
  it('show the line text the file has there, under a label that is no absolute path', { timeout: 600_000 }, async () => {
    using oracleDir = tempDir({}, 'agent-tools-oracle-');
    const oracleFiles = project.prepare(oracleDir.path);
    await using oracle = await DirectClient.start(oracleDir.path, project.server(oracleDir.path));
    oracle.open(oracleFiles[0] as string);
    await oracle.idle();
    const next = seededRandom(SEED);
    const sample = oracleFiles.filter(() => next() < 0.5).slice(0, 30);
    const picked = pick(oracleDir.path, sample.length > 0 ? sample : oracleFiles, 12, next);

    // Positions whose definition (per the server) lies outside the working directory, with the line text there.
    const outside: Array<{ p: (typeof picked)[number]; lines: Map<number, string> }> = [];
    for (const p of picked) {
      if (outside.length >= WANTED) break;
      const uri = oracle.open(join(oracleDir.path, p.file));
      const answer = await oracle.stable<Location | Location[] | LocationLink[] | null>('textDocument/definition', { textDocument: { uri }, position: p.position }).catch(() => null);
      const list = answer === null ? [] : Array.isArray(answer) ? answer : [answer];
      const lines = new Map<number, string>();
      for (const item of list as Array<Location | LocationLink>) {
        const target = 'targetUri' in item ? item.targetUri : item.uri;
        const range = 'targetUri' in item ? (item.targetSelectionRange ?? item.targetRange) : item.range;
        const path = fileURLToPath(target);
        if (!relative(oracleDir.path, path).startsWith('..')) continue;
        lines.set(range.start.line + 1, readFileSync(path, 'utf8').split(/\r\n|\r|\n/)[range.start.line] as string);
      }
      if (lines.size > 0) outside.push({ p, lines });
    }
    expect(outside.length).toBeGreaterThan(0);

    await using run = startRun({}, { indexWaitMs: 300_000 });
    project.prepare(run.dir.path);
    for (const { p, lines } of outside) {
      const where = `definition at ${p.file}:${p.line} \`${p.symbol}\``;
      const result = await run.lsp({ action: 'definition', file: p.file, line: p.line, symbol: p.symbol, occurrence: p.occurrence });
      expect(result.isError, text(result)).toBe(false);
      const locations = (result.structured as { locations: Array<{ file: string; line: number; text?: string; outside?: true }> }).locations.filter((l) => l.outside);
      expect(locations.length, where).toBe(lines.size);
      for (const location of locations) {
        expect(location.file, where).not.toMatch(/^\//);
        expect(text(result), where).not.toContain(run.dir.path);
        expect(text(result), where).not.toMatch(/(^|\s)\/(usr|work|tmp|home|root)\//m);
        expect(location.text, `${where}: ${location.file}:${location.line}`).toBe(lines.get(location.line));
      }
    }
  });
});
