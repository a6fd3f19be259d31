// A stand-in harness for the no-orphans proof: holds typescript-language-server (with its tsserver) and a fake
// server whose launcher leaves a `setsid` grandchild that ignores SIGTERM, then waits to be killed or disposes
// its registry (HARNESS_DISPOSE). Usage: ls-harness.mjs <project dir> <fake server script>.
import { approveAll, createRegistry } from '@agent-tools/core';
import { createLspSupervisor, defineServer, lspTools } from '@agent-tools/lsp';

const [dir, fakeServer, fakeScript] = process.argv.slice(2);
const escaping = defineServer({
  id: 'fake',
  name: 'fake-server',
  languages: 'Fake',
  extensions: { '.fake': 'fake' },
  rootMarkers: ['fake.json'],
  binaries: ['sh'],
  args: ['-c', '(trap "" TERM; exec setsid sleep 607) & exec "$0" "$@"', process.execPath, fakeServer, fakeScript],
});
const supervisor = createLspSupervisor({ cwd: dir, servers: [escaping], requestTimeoutMs: 60_000 });
const registry = createRegistry({ resources: { cwd: dir, lspSupervisor: supervisor }, factories: [lspTools], approve: approveAll });
for (const [file, symbol] of [['a.ts', 'a'], ['b.fake', 'b']]) {
  const result = await registry.call('lsp', { action: 'hover', file, line: 1, symbol });
  if (result.isError) throw new Error(JSON.stringify(result));
}
console.log('ready');
if (process.env.HARNESS_DISPOSE) {
  await registry.dispose();
  console.log('disposed');
} else {
  // Until it is killed, or the test that started it is gone (its pipe closes).
  process.stdin.on('end', () => process.exit(0)).resume();
}
