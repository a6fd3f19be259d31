import { capTextTail, formatDuration } from '@agent-tools/core/internal';
import { plainOutput } from './plain-output.js';
import { admitsEverything, surfacePhrase } from './surface-policy.js';
import type { WorkerSnapshot } from './worker-state.js';

/** `w1 "label"`: how every answer names a worker. */
export function workerName(worker: WorkerSnapshot): string {
  return `${worker.id} "${worker.label}"`;
}

/** "run 2 (1 message)", or nothing for a first run without messages. */
function runNote(worker: WorkerSnapshot): string {
  if (worker.run <= 1 && worker.messages === 0) return '';
  const messages = worker.messages === 1 ? '1 message' : `${worker.messages} messages`;
  const how = worker.began === 'resumed' ? ', session continued' : worker.began === 'restarted' ? ', restarted' : '';
  return ` · run ${worker.run} (${messages}${how})`;
}

/** Status and time in a few words: "running for 12 s", "finished in 40 s", "failed after 3 s (exit code 2)", "killed after 5 s". */
export function statusPhrase(worker: WorkerSnapshot): string {
  const time = formatDuration(worker.elapsedMs);
  switch (worker.status) {
    case 'running':
      return `running for ${time}`;
    case 'finished':
      return `finished in ${time}`;
    case 'failed':
      return `failed after ${time}${worker.result?.detail ? ` (${worker.result.detail})` : ''}`;
    case 'killed':
      return `killed after ${time}`;
  }
}

/** One worker in a listing: name, tier, status and time, then its latest output or result, capped. */
export function listEntry(worker: WorkerSnapshot, resultChars: number): string {
  const limited = admitsEverything(worker.surface) ? '' : ` · from ${surfacePhrase(worker.surface)}`;
  const head = `- ${workerName(worker)} · ${worker.tier} · ${statusPhrase(worker)}${runNote(worker)}${limited}`;
  const running = worker.status === 'running';
  const text = plainOutput(running ? worker.output : (worker.result?.output ?? ''));
  const label = { running: 'output so far', finished: 'result', failed: 'output', killed: 'output before it was killed' }[worker.status];
  if (!text) return `${head}\n  ${label}: (none)`;
  return `${head}\n  ${label}: ${capTextTail(text, resultChars).replace(/\n/g, '\n    ')}`;
}
