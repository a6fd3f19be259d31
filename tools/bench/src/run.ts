import { readdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * Runs the benchmarks: `pnpm bench` runs every `*.bench.js`, `pnpm bench ast` only those whose name starts with
 * `ast`. Each benchmark file runs on import and prints a markdown table.
 */
const here = dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
const files = readdirSync(here)
  .filter((f) => f.endsWith('.bench.js'))
  .filter((f) => only.length === 0 || only.some((name) => f.startsWith(name)))
  .sort();
if (files.length === 0) {
  console.error(`No benchmark matches ${only.join(', ') || '(none written yet)'}.`);
  process.exitCode = only.length ? 1 : 0;
}
for (const file of files) {
  console.log(`\n## ${file.replace(/\.bench\.js$/, '')}\n`);
  await import(pathToFileURL(`${here}/${file}`).href);
}
