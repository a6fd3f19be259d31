import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import { goplsServer } from '../src/config/servers/go.js';
import { PublishedDiagnostics } from '../src/server/published-diagnostics.js';

// The order of publishes is gopls 0.5's (Debian 12), as recorded from the real server on a file's first open: an
// unversioned type check at once, then a versioned publish with the analyzers' findings (vet) when they are done.
// The delay between the two is what load decides; it is replayed here, since a real server's cannot be forced.
const PATH = '/project/a.go';
const vet: Diagnostic = {
  range: { start: { line: 5, character: 1 }, end: { line: 5, character: 24 } },
  message: 'fmt.Printf format %d has arg "x" of wrong type string',
  source: 'printf',
};

function later(ms: number, fn: () => void): void {
  setTimeout(fn, ms).unref();
}

describe('a first open answered in two publishes (gopls: an unversioned type check, then versioned vet findings)', () => {
  it('takes the versioned publish as the answer when it comes 500 ms after the first, with gopls quiet period', async () => {
    const published = new PublishedDiagnostics();
    published.record(PATH, undefined, []);
    later(500, () => published.record(PATH, 1, [vet]));
    const quietMs = goplsServer.publishQuietMs ?? 200;
    const list = await published.quiet(PATH, 1, quietMs, Date.now() + 10_000);
    expect(list).toEqual([vet]);
  });

  it('ends the wait at the versioned publish: a later unversioned one is not waited for', async () => {
    const published = new PublishedDiagnostics();
    published.record(PATH, undefined, []);
    later(50, () => published.record(PATH, 1, [vet]));
    later(400, () => published.record(PATH, undefined, []));
    const list = await published.quiet(PATH, 1, 1000, Date.now() + 10_000);
    expect(list).toEqual([vet]);
    await sleep(450);
  });

  it('still takes the unversioned publish when nothing follows it (a file with type errors, or left out by a build tag)', async () => {
    const published = new PublishedDiagnostics();
    const typeError: Diagnostic = { ...vet, message: 'unused declared but not used', source: 'compiler' };
    published.record(PATH, undefined, [typeError]);
    expect(await published.quiet(PATH, 1, 100, Date.now() + 10_000)).toEqual([typeError]);
  });
});
