import { createRegistry, approveAll, resultText } from '@agent-tools/core';
import { createDebugSupervisor, debugTools } from './dist/index.js';
const sup = createDebugSupervisor({ waitMs: 15000 });
const reg = createRegistry({ resources: { cwd: process.argv[2], conversationId: 'c', debugSupervisor: sup }, factories: [debugTools], approve: approveAll });
const steps = JSON.parse(process.argv[3]);
for (const s of steps) {
  const r = await reg.call('debug', s);
  console.log('>>', JSON.stringify(s), '\n', resultText(r).slice(0, 600));
  const sess = sup.conversation('c').session;
  if (sess) console.log('CONSOLE:', JSON.stringify(sess.consoleText.slice(-400)));
}
await reg.dispose();
