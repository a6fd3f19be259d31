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
  samples.sort((a, b) => a - b);
  const mid = Math.floor(samples.length / 2);
  const median = samples.length % 2 ? (samples[mid] as number) : ((samples[mid - 1] as number) + (samples[mid] as number)) / 2;
  return { label, runs, medianMs: median, minMs: samples[0] as number, maxMs: samples[samples.length - 1] as number };
}

/** A markdown table of timings, for the package READMEs. */
export function timingTable(timings: readonly Timing[]): string {
  const rows = timings.map(
    (t) => `| ${t.label} | ${t.medianMs.toFixed(1)} | ${t.minMs.toFixed(1)} | ${t.maxMs.toFixed(1)} | ${t.runs} |`,
  );
  return ['| measurement | median ms | min ms | max ms | runs |', '|---|---:|---:|---:|---:|', ...rows].join('\n');
}
