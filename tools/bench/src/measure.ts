/** Medians and spreads of repeated timings. */
export interface Timing {
  readonly label: string;
  readonly runs: number;
  readonly medianMs: number;
  readonly minMs: number;
  readonly maxMs: number;
}

/** Runs `task` `runs` times (after `warmup` unmeasured runs) and returns the median wall time. */
export async function measure(label: string, task: () => unknown, runs = 7, warmup = 1): Promise<Timing> {
  for (let i = 0; i < warmup; i++) await task();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await task();
    samples.push(performance.now() - start);
  }
  return timing(label, samples);
}

/** The median and spread of samples taken by hand (alternating runs of two things, say). */
export function timing(label: string, samples: readonly number[]): Timing {
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
  return { label, runs: sorted.length, medianMs: median, minMs: sorted[0] as number, maxMs: sorted[sorted.length - 1] as number };
}

/** Runs `task` once and returns its wall time with its value. */
export async function timed<T>(task: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await task();
  return { ms: performance.now() - start, value };
}

/** A markdown table of timings, for the package READMEs. */
export function timingTable(timings: readonly Timing[]): string {
  const rows = timings.map(
    (t) => `| ${t.label} | ${t.medianMs.toFixed(1)} | ${t.minMs.toFixed(1)} | ${t.maxMs.toFixed(1)} | ${t.runs} |`,
  );
  return ['| measurement | median ms | min ms | max ms | runs |', '|---|---:|---:|---:|---:|', ...rows].join('\n');
}
