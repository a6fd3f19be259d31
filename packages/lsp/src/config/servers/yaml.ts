import { bundledNodeBin } from '../bundled.js';
import { defineServer } from '../server-config.js';
import { PROJECT_MARKERS } from './document-roots.js';

/**
 * YAML through `yaml-language-server` (1.x: 2.x needs Node 22): syntax errors, duplicate keys, and schema errors for a
 * document that names its schema (`# yaml-language-server: $schema=<path>`). The schema store is off: it is fetched
 * from the network.
 */
export const yamlServer = defineServer({
  id: 'yaml',
  name: 'yaml-language-server',
  languages: 'YAML',
  extensions: { '.yaml': 'yaml', '.yml': 'yaml' },
  rootMarkers: PROJECT_MARKERS,
  binaries: ['yaml-language-server'],
  args: ['--stdio'],
  bundled: bundledNodeBin('yaml-language-server', 'yaml-language-server'),
  settings: () => ({
    yaml: { validate: true, hover: true, completion: false, format: { enable: false }, schemaStore: { enable: false }, schemas: {}, keyOrdering: false },
    redhat: { telemetry: { enabled: false } },
  }),
  projectWide: false,
});
