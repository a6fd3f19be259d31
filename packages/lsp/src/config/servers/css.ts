import { bundledNodeBin } from '../bundled.js';
import { defineServer } from '../server-config.js';
import { PROJECT_MARKERS } from './document-roots.js';

/** CSS, SCSS and LESS through `vscode-css-language-server` (vscode-langservers-extracted): syntax errors and its lint. */
export const cssServer = defineServer({
  id: 'css',
  name: 'vscode-css-language-server',
  languages: 'CSS/SCSS/LESS',
  extensions: { '.css': 'css', '.scss': 'scss', '.less': 'less' },
  rootMarkers: PROJECT_MARKERS,
  binaries: ['vscode-css-language-server'],
  args: ['--stdio'],
  bundled: bundledNodeBin('vscode-langservers-extracted', 'vscode-css-language-server'),
  initializationOptions: () => ({ provideFormatter: false }),
  settings: () => ({ css: { validate: true }, scss: { validate: true }, less: { validate: true } }),
  projectWide: false,
});
