import { cpSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nameMatches } from '../src/format/symbols.js';
import { startRun, text } from './helpers.js';

// Issue 22, item 10: gopls answers `symbols "MIME"` fuzzily (Meetei_Mayek, SYS_TIMER_SETTIME), mostly from outside
// the project. Only names that contain the query (or abbreviate it by camel-case words) are answers; the project's
// own come alone unless outside ones are asked for. Real code: Go's net/textproto, from Debian's golang-go.
interface Sym {
  readonly name: string;
  readonly file: string;
  readonly outside?: true;
}

describe('workspace symbols keep what matches the query', () => {
  it('gopls on net/textproto: "MIME" lists only names containing it, the project\'s own first', { timeout: 300_000 }, async () => {
    await using run = startRun({}, { indexWaitMs: 300_000 });
    const source = '/usr/lib/go/src/net/textproto';
    for (const file of readdirSync(source).filter((f) => f.endsWith('.go'))) cpSync(join(source, file), join(run.dir.path, file));
    writeFileSync(join(run.dir.path, 'go.mod'), 'module example.com/textproto\n\ngo 1.19\n');
    const own = await run.lsp({ action: 'symbols', query: 'MIME' });
    expect(own.isError, text(own)).toBe(false);
    const listed = (own.structured as { symbols: Sym[] }).symbols;
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.filter((s) => s.outside)).toEqual([]);
    expect(listed.filter((s) => !s.name.toLowerCase().includes('mime'))).toEqual([]);
    expect(listed.map((s) => s.name)).toContain('MIMEHeader');
    // The server's fuzzy matches are said to be left out, and the outside ones counted.
    expect(text(own)).toMatch(/\n\(\d+ fuzzy match(es)? not containing "MIME" left out\)/);
    // gopls cut its answer at 100 with mostly unrelated names: a narrower query gets more of the real ones.
    const all = await run.lsp({ action: 'symbols', query: 'Header', outside: true });
    const everything = (all.structured as { symbols: Sym[] }).symbols;
    expect(everything.some((s) => s.outside)).toBe(true);
    expect(everything.filter((s) => !nameMatches(s.name, 'Header'))).toEqual([]);
    // Inside first.
    const firstOutside = everything.findIndex((s) => s.outside);
    expect(everything.slice(firstOutside).every((s) => s.outside)).toBe(true);
  });

  it('camel-case abbreviations match, unrelated names do not', () => {
    expect(nameMatches('MIMEHeader', 'mime')).toBe(true);
    expect(nameMatches('getReadFile', 'gRF')).toBe(true);
    expect(nameMatches('ReadMIMEHeader', 'RMH')).toBe(true);
    expect(nameMatches('Meetei_Mayek', 'MIME')).toBe(false);
    expect(nameMatches('SYS_TIMER_SETTIME', 'MIME')).toBe(false);
  });
});
