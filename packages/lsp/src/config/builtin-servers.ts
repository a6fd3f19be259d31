import type { ServerConfig } from './server-config.js';
import { clangdServer } from './servers/clangd.js';
import { dartServer } from './servers/dart.js';
import { goplsServer } from './servers/go.js';
import { pyrightServer } from './servers/python.js';
import { rustAnalyzerServer } from './servers/rust.js';
import { typescriptServer } from './servers/typescript.js';

/** The language servers known out of the box, by id. */
export const builtinServers = {
  typescript: typescriptServer,
  pyright: pyrightServer,
  gopls: goplsServer,
  clangd: clangdServer,
  'rust-analyzer': rustAnalyzerServer,
  dart: dartServer,
} as const satisfies Readonly<Record<string, ServerConfig>>;
