// A stand-in harness for the no-orphans proof: one worker that starts a `setsid` grandchild; then it ends as every
// stand-in does (`standIn`: killed, SIGUSR2, or disposing its worker list with HARNESS_DISPOSE).

import { standIn } from '@agent-tools/test-utils/stand-in';
import { processRunner, WorkerList } from '@agent-tools/vibe';

const list = new WorkerList({ runner: processRunner({ command: ['sh', '-c', 'setsid sleep 600 & echo started; sleep 601'] }) });
list.spawn({ brief: 'b', label: 'forker' });
while (!list.get('w1').output.includes('started')) await new Promise((resolve) => setTimeout(resolve, 20));
await standIn(() => list.dispose());
