import type { ServerConfig } from './server-config.js';
import { clangdServer } from './servers/clangd.js';
import { dartServer } from './servers/dart.js';
import { eslintServer } from './servers/eslint.js';
import { goplsServer } from './servers/go.js';
import { pyrightServer } from './servers/python.js';
import { rustAnalyzerServer } from './servers/rust.js';
import { typescriptServer } from './servers/typescript.js';

/** The language servers known out of the box, by id: primary servers first, then the additional ones (ESLint). */
export const builtinServers = {
  typescript: typescriptServer,
  pyright: pyrightServer,
  gopls: goplsServer,
  clangd: clangdServer,
  'rust-analyzer': rustAnalyzerServer,
  dart: dartServer,
  eslint: eslintServer,
} as const satisfies Readonly<Record<string, ServerConfig>>;
