// A stand-in harness for the no-orphans proof with js-debug: a session stopped at a breakpoint in a forked child
// process (js-debug's server, the parent program and the child all run); then it ends as every stand-in does
// (`standIn`: killed, SIGUSR2, or disposing with HARNESS_DISPOSE).
// Usage: js-harness.mjs <project dir> <breakpoint line in fork.js>.
import { approveAll, createRegistry } from '@agent-tools/core';
import { createDebugSupervisor, debugTools } from '@agent-tools/debug';
import { standIn } from '@agent-tools/test-utils/stand-in';

const [dir, line] = process.argv.slice(2);
const registry = createRegistry({
  resources: { cwd: dir, conversationId: 'proof', debugSupervisor: createDebugSupervisor({ waitMs: 30_000 }) },
  factories: [debugTools],
  approve: approveAll,
});
await registry.call('debug', { action: 'breakpoints', file: 'fork.js', lines: [Number(line)] });
const launched = await registry.call('debug', { action: 'launch', program: 'fork.js' });
if (launched.isError) throw new Error(JSON.stringify(launched));
await standIn(() => registry.dispose());
