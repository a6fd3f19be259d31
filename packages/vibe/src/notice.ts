import type { Notice } from '@agent-tools/core';
import { statusPhrase, workerName } from './format.js';
import { plainOutput } from './plain-output.js';
import type { WorkerSnapshot } from './worker-state.js';

/** Who posts the vibe notices on a run's board. */
export const NOTICE_SOURCE = '@agent-tools/vibe';
/** How much of a worker's result a notice quotes (the end: agents summarise last). */
const NOTICE_RESULT_CHARS = 200;

/** The key of the notice of a worker's run ending: the run's tools withdraw it once their answer says the same. */
export function noticeKey(worker: Pick<WorkerSnapshot, 'id' | 'run'>): string {
  return `vibe:${worker.id}:${worker.run}`;
}

/**
 * The notice appended to the model's next tool result when a worker's run ends: `Worker w2 "tests" finished in
 * 41 s: …end of its result. vibe_wait "w2" for all of it.`
 */
export function endNotice(worker: WorkerSnapshot): Notice {
  const output = plainOutput(worker.result?.output ?? '').replace(/\s+/g, ' ');
  const quoted = output.length > NOTICE_RESULT_CHARS ? `…${output.slice(output.length - NOTICE_RESULT_CHARS)}` : output;
  const what = worker.status === 'finished' ? 'its result' : 'its output';
  const tail = quoted ? `: ${quoted}` : ` (no output)`;
  const next = worker.status === 'failed' ? ' Read it, then vibe_send a correction or do the task yourself.' : '';
  return {
    text: `Worker ${workerName(worker)} ${worker.status === 'killed' ? 'was ' : ''}${statusPhrase(worker)}${tail} — call vibe_wait with worker_id "${worker.id}" for ${what} in full.${next}`,
    heading: 'Background workers:',
    source: NOTICE_SOURCE,
    key: noticeKey(worker),
  };
}
