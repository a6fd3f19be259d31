import { bundledNodeBin } from '../bundled.js';
import { defineServer } from '../server-config.js';
import { PROJECT_MARKERS } from './document-roots.js';

/**
 * JSON through `vscode-json-language-server` (vscode-langservers-extracted): syntax errors, and schema errors for a
 * document whose `$schema` names a schema file it can read (a path, or a `file:` URI). It fetches no schema from the
 * network: package.json and tsconfig.json are checked against a schema only when they name one themselves.
 */
export const jsonServer = defineServer({
  id: 'json',
  name: 'vscode-json-language-server',
  languages: 'JSON',
  extensions: { '.json': 'json', '.jsonc': 'jsonc', '.json5': 'json5' },
  rootMarkers: PROJECT_MARKERS,
  binaries: ['vscode-json-language-server'],
  args: ['--stdio'],
  bundled: bundledNodeBin('vscode-langservers-extracted', 'vscode-json-language-server'),
  initializationOptions: () => ({ provideFormatter: false, handledSchemaProtocols: ['file'] }),
  settings: () => ({ json: { validate: { enable: true }, format: { enable: false }, schemas: [] }, http: { proxyStrictSSL: true } }),
  projectWide: false,
});
