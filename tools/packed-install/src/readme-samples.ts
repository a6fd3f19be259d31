import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ROOT, workspacePackages } from './workspace.js';

/** One TypeScript sample of a README. */
export interface ReadmeSample {
  /** Where it is, for messages: `packages/eval/README.md:12`. */
  readonly origin: string;
  /** A file name for it in the samples project. */
  readonly file: string;
  readonly code: string;
}

/** Every fenced ```ts block of the root README and of each package's README. */
export function readmeSamples(): ReadmeSample[] {
  const readmes = [join(ROOT, 'README.md'), ...workspacePackages().map((pkg) => join(ROOT, 'packages', pkg.dir, 'README.md'))];
  return readmes.flatMap((path) => samplesOf(path));
}

function samplesOf(path: string): ReadmeSample[] {
  const where = relative(ROOT, path);
  const stem = where.replace(/\/README\.md$|README\.md$/, '').replace(/^packages\//, '') || 'root';
  const lines = readFileSync(path, 'utf8').split('\n');
  const samples: ReadmeSample[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^```(ts|typescript)\s*$/.test(lines[i] ?? '')) continue;
    const start = i + 1;
    let end = start;
    while (end < lines.length && !/^```\s*$/.test(lines[end] ?? '')) end++;
    // Each sample is its own module (top-level await allowed), with its README line numbers kept by padding.
    const code = `${'\n'.repeat(start)}${lines.slice(start, end).join('\n')}\nexport {};\n`;
    samples.push({ origin: `${where}:${start + 1}`, file: `samples/${stem}-${samples.length + 1}.ts`, code });
    i = end;
  }
  return samples;
}
