import { bundledNodeBin } from '../bundled.js';
import { defineServer } from '../server-config.js';
import { biomeIgnores } from './biome-ignores.js';
import { biomeProblem } from './biome-problem.js';
import { JS_EXTENSIONS, TS_EXTENSIONS } from './js-extensions.js';
import { projectPackage } from './project-package.js';

/**
 * Biome through `biome lsp-proxy`, an additional server for JavaScript, TypeScript, JSON and CSS when the project has a
 * `biome.json` or `biome.jsonc`. It runs the project's own `@biomejs/biome` (found project-local first): a Biome
 * configuration is read by the version it was written for, so a root without that package is not served.
 */
export const biomeServer = defineServer({
  id: 'biome',
  name: 'biome',
  languages: 'JavaScript/TypeScript/JSON/CSS lint',
  role: 'additional',
  extensions: {
    ...JS_EXTENSIONS,
    ...TS_EXTENSIONS,
    '.json': 'json',
    '.jsonc': 'jsonc',
    '.css': 'css',
  },
  rootMarkers: ['biome.json', 'biome.jsonc'],
  binaries: ['biome'],
  args: ['lsp-proxy'],
  bundled: bundledNodeBin('@biomejs/biome', 'biome'),
  requires: ({ root, cwd }) => projectPackage('@biomejs/biome', root, cwd),
  problem: biomeProblem,
  // Biome's server publishes nothing for a file its configuration ignores, so its diagnostics would be awaited until
  // they time out on every call and write: its CLI says so (`biome lint` names the paths "provided but ignored").
  ignores: biomeIgnores,
  // Its server goes on with the configuration it started with when biome.json(c) is written (as a document or a
  // watched file): a written configuration restarts it.
  configurationChange: 'restart',
  // Nothing to check project-wide through it: its findings of every file come with the diagnostics of that file.
  projectWide: false,
});
