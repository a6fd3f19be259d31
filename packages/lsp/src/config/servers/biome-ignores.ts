import { relative } from 'node:path';
import type { IgnoreCheck } from '../server-config.js';

/**
 * Which files the project's Biome configuration leaves out of linting (`files.includes`, `linter.includes`, its VCS
 * ignore file): `biome lint <files>` lists them under "These paths were provided but ignored" (and lints the others,
 * whose findings are not read here). A run that fails or does not answer in time ignores nothing.
 */
export const biomeIgnores: IgnoreCheck = async ({ root, paths, run }) => {
  const byName = new Map(paths.map((path) => [relative(root, path), path]));
  const output = await run(['lint', '--colors=off', '--max-diagnostics=0', ...byName.keys()], 10_000);
  const ignored = new Set<string>();
  if (!output) return ignored;
  const listed = `${output.stdout}\n${output.stderr}`.split('These paths were provided but ignored:')[1] ?? '';
  for (const line of listed.split('\n')) {
    const path = byName.get(line.trim().replace(/^- /, ''));
    if (line.trim().startsWith('- ') && path) ignored.add(path);
  }
  return ignored;
};
