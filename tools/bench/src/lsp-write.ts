import { writeFileSync } from 'node:fs';
import type { Registry } from '@agent-tools/core';

/** One write as the harness's hook sees it (baseline, write, check), timed; fails unless the file was checked. */
export async function timedWrite(registry: Registry, path: string, content: string): Promise<{ ms: number; text: string }> {
  const started = performance.now();
  await registry.diagnostics.beforeWrite([path]);
  writeFileSync(path, content);
  const report = await registry.diagnostics.afterWrite([path]);
  const ms = performance.now() - started;
  if (report.files[0]?.state !== 'checked') throw new Error(`not checked: ${report.text}`);
  return { ms, text: report.text };
}
