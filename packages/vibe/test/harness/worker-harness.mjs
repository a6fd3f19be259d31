// A stand-in harness for the no-orphans proof: one worker that starts a `setsid` grandchild, then either waits to
// be killed or disposes its worker list (HARNESS_DISPOSE) and exits.
import { processRunner, WorkerList } from '@agent-tools/vibe';

const list = new WorkerList({ runner: processRunner({ command: ['sh', '-c', 'setsid sleep 600 & echo started; sleep 601'] }) });
list.spawn({ brief: 'b', label: 'forker' });
while (!list.get('w1').output.includes('started')) await new Promise((resolve) => setTimeout(resolve, 20));
console.log('ready');
if (process.env.HARNESS_DISPOSE) {
  await list.dispose();
  console.log('disposed');
} else {
  // Until it is killed, or the test that started it is gone (its pipe closes).
  process.stdin.on('end', () => process.exit(0)).resume();
}
