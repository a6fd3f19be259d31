// A stand-in harness for the no-orphans proof: a Python kernel on the run's own Jupyter server, with one background
// shell command in the kernel's group and one that left it (`setsid`); then it ends as every stand-in does
// (`standIn`: killed, SIGUSR2, or disposing its registry with HARNESS_DISPOSE). Usage: kernel-harness.mjs <dir>.
import { approveAll, createRegistry } from '@agent-tools/core';
import { createKernelFactory, evalTools } from '@agent-tools/eval';
import { standIn } from '@agent-tools/test-utils/stand-in';

const [dir] = process.argv.slice(2);
const registry = createRegistry({
  resources: { cwd: dir, conversationId: 'proof', kernelFactory: createKernelFactory({ cwd: dir }) },
  factories: [evalTools],
  approve: approveAll,
});
const answer = await registry.call('eval', {
  code: '!sleep 600 &\n!setsid sleep 601 &\nprint("started")',
  description: 'starts two background shell commands',
  timeout_seconds: 20,
});
if (answer.isError) throw new Error(JSON.stringify(answer));
await standIn(() => registry.dispose());
