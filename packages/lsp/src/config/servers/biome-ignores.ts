import { relative } from 'node:path';
import type { IgnoreCheck } from '../server-config.js';

/**
 * Which files the project's Biome configuration leaves out of linting (`files.includes`, `linter.includes`, its VCS
 * ignore file). `biome lint <files>` lists them under "These paths were provided but ignored" only when it processed
 * none of the given files; when it processed some, `--verbose` lists those ("Files processed"), and the given files
 * missing there are the ignored ones. A run that fails or does not answer in time (neither list) ignores nothing.
 */
export const biomeIgnores: IgnoreCheck = async ({ root, paths, run }) => {
  const byName = new Map(paths.map((path) => [relative(root, path), path]));
  const output = await run(['lint', '--colors=off', '--verbose', '--max-diagnostics=0', ...byName.keys()], 10_000);
  const ignored = new Set<string>();
  if (!output) return ignored;
  const text = `${output.stdout}\n${output.stderr}`;
  const listed = listAfter(text, 'These paths were provided but ignored:');
  const processed = listAfter(text, 'Files processed:');
  for (const [name, path] of byName) {
    if (listed?.has(name) || (processed && !processed.has(name))) ignored.add(path);
  }
  return ignored;
};

/** The `- path` lines that follow a heading of Biome's output, or undefined without the heading. */
function listAfter(text: string, heading: string): Set<string> | undefined {
  const at = text.indexOf(heading);
  if (at < 0) return undefined;
  const names = new Set<string>();
  for (const line of text.slice(at + heading.length).split('\n').slice(1)) {
    const item = /^\s*- (.*)$/.exec(line);
    if (item) names.add((item[1] as string).trimEnd());
    else if (line.trim() !== '') break;
  }
  return names;
}
