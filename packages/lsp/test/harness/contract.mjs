// The factory contract's stand-in harness module (see @agent-tools/test-utils): the contract's resources, built
// in a child process in `dir`: a project served by the scripted fake server.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createLspSupervisor, defineServer, lspTools } from '@agent-tools/lsp';

export const factory = lspTools;

/** @param {string} dir */
export function resources(dir) {
  const script = join(dir, 'script.json');
  writeFileSync(script, JSON.stringify({ capabilities: { hoverProvider: true }, methods: { 'textDocument/hover': { reply: { contents: 'x' } } } }));
  writeFileSync(join(dir, 'fake.json'), '{}');
  writeFileSync(join(dir, 'a.fake'), 'word\n');
  const fake = defineServer({
    id: 'fake',
    name: 'fake-server',
    languages: 'Fake',
    extensions: { '.fake': 'fake' },
    rootMarkers: ['fake.json'],
    binaries: [process.execPath],
    args: [new URL('../fixtures/fake-server.mjs', import.meta.url).pathname, script],
  });
  const supervisor = createLspSupervisor({ cwd: dir, builtins: false, servers: [fake] });
  return { cwd: dir, lspSupervisor: supervisor, diagnostics: supervisor };
}
