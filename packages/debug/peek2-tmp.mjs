import { createRegistry, approveAll, resultText } from '@agent-tools/core';
import { createDebugSupervisor, debugTools } from './dist/index.js';
const sup = createDebugSupervisor({ waitMs: 15000 });
const reg = createRegistry({ resources: { cwd: process.argv[2], conversationId: 'c', debugSupervisor: sup }, factories: [debugTools], approve: approveAll });
await reg.call('debug', { action: 'launch', program: process.argv[3] });
const s = sup.conversation('c').session;
const text = s.output.since(0, 1e9).text;
console.log('chars', text.length, 'replacement chars', (text.match(/\ufffd/g) || []).length);
await reg.dispose();
