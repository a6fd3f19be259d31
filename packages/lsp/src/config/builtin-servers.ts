import type { ServerConfig } from './server-config.js';
import { bashServer } from './servers/bash.js';
import { biomeServer } from './servers/biome.js';
import { clangdServer } from './servers/clangd.js';
import { cssServer } from './servers/css.js';
import { dartServer } from './servers/dart.js';
import { dockerfileServer } from './servers/dockerfile.js';
import { eslintServer } from './servers/eslint.js';
import { goplsServer } from './servers/go.js';
import { htmlServer } from './servers/html.js';
import { jsonServer } from './servers/json.js';
import { pyrightServer } from './servers/python.js';
import { rustAnalyzerServer } from './servers/rust.js';
import { typescriptServer } from './servers/typescript.js';
import { yamlServer } from './servers/yaml.js';

/** The language servers known out of the box, by id: primary servers first, then the additional ones (ESLint, Biome). */
export const builtinServers = {
  typescript: typescriptServer,
  pyright: pyrightServer,
  gopls: goplsServer,
  clangd: clangdServer,
  'rust-analyzer': rustAnalyzerServer,
  dart: dartServer,
  json: jsonServer,
  css: cssServer,
  html: htmlServer,
  yaml: yamlServer,
  bash: bashServer,
  dockerfile: dockerfileServer,
  eslint: eslintServer,
  biome: biomeServer,
} as const satisfies Readonly<Record<string, ServerConfig>>;
