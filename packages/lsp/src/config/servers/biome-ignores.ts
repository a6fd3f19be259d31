import { relative } from 'node:path';
import type { IgnoreCheck } from '../server-config.js';

/**
 * Whether the project's Biome configuration leaves a file out of linting (`files.includes`, `linter.includes`, its
 * VCS ignore file): `biome lint <file>` lints nothing then and lists it under "These paths were provided but
 * ignored". Anything else (it linted the file, it failed, it did not answer in time) is not "ignored".
 */
export const biomeIgnores: IgnoreCheck = async ({ root, path, run }) => {
  const file = relative(root, path);
  const output = await run(['lint', '--colors=off', '--max-diagnostics=0', file], 10_000);
  if (!output) return false;
  const text = `${output.stdout}\n${output.stderr}`;
  const listed = text.split('These paths were provided but ignored:')[1];
  return listed?.split('\n').some((line) => line.trim() === `- ${file}`) === true;
};
