// A stand-in harness for the clangd database proof: holds clangd on a C project without a compilation database
// (so one is generated), then waits to be killed. Usage: clangd-harness.mjs <project dir>.
import { approveAll, createRegistry } from '@agent-tools/core';
import { createLspSupervisor, lspTools } from '@agent-tools/lsp';

const [dir] = process.argv.slice(2);
const supervisor = createLspSupervisor({ cwd: dir, requestTimeoutMs: 60_000 });
const registry = createRegistry({ resources: { cwd: dir, lspSupervisor: supervisor }, factories: [lspTools], approve: approveAll });
const result = await registry.call('lsp', { action: 'hover', file: 'main.c', line: 2, symbol: 'add' });
if (result.isError) throw new Error(JSON.stringify(result));
console.log('ready');
// Until it is killed, or the test that started it is gone (its pipe closes).
process.stdin.on('end', () => process.exit(0)).resume();
