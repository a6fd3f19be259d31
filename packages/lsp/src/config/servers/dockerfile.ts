import { bundledNodeBin } from '../bundled.js';
import { defineServer } from '../server-config.js';

/** Dockerfiles through `docker-langserver` (dockerfile-language-server-nodejs): instruction and argument errors. */
export const dockerfileServer = defineServer({
  id: 'dockerfile',
  name: 'docker-langserver',
  languages: 'Dockerfile',
  extensions: { '.dockerfile': 'dockerfile' },
  filenames: { Dockerfile: 'dockerfile', Containerfile: 'dockerfile' },
  rootMarkers: ['Dockerfile', 'Containerfile', '.dockerignore', 'compose.yaml', 'compose.yml', 'docker-compose.yml', 'docker-compose.yaml', '.git'],
  binaries: ['docker-langserver'],
  args: ['--stdio'],
  bundled: bundledNodeBin('dockerfile-language-server-nodejs', 'docker-langserver'),
  projectWide: false,
});
