import { bundledNodeBin } from '../bundled.js';
import { defineServer } from '../server-config.js';
import { PROJECT_MARKERS } from './document-roots.js';

/** HTML through `vscode-html-language-server` (vscode-langservers-extracted), with its embedded CSS and JavaScript. */
export const htmlServer = defineServer({
  id: 'html',
  name: 'vscode-html-language-server',
  languages: 'HTML',
  extensions: { '.html': 'html', '.htm': 'html' },
  rootMarkers: PROJECT_MARKERS,
  binaries: ['vscode-html-language-server'],
  args: ['--stdio'],
  bundled: bundledNodeBin('vscode-langservers-extracted', 'vscode-html-language-server'),
  initializationOptions: () => ({ provideFormatter: false, embeddedLanguages: { css: true, javascript: true } }),
  settings: () => ({ html: { validate: { scripts: true, styles: true } }, css: { validate: true }, javascript: { validate: { enable: true } } }),
  projectWide: false,
});
