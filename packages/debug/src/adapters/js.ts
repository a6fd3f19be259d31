import { execFileSync } from 'node:child_process';
import { displayPath } from '@agent-tools/core';
import { findExecutable, searchPath } from '@agent-tools/core/internal';
import type { AdapterConfig, AdapterTransport, LocateContext, LocateResult } from './adapter.js';
import { findJsDebug, JS_DEBUG_INSTALL } from './js-debug-locate.js';
import { exitCodeRuntimeArgs, readExitCode } from './js-exit-code.js';
import { inspectorNoDelayOptions } from './js-nodelay.js';
import { JS_EXTENSIONS, planProgram, TS_EXTENSIONS } from './js-program.js';

/** Options of the js adapter. */
export interface JsAdapterOptions {
  /** js-debug's `dapDebugServer.js` (or a release's `js-debug` folder); looked for in the documented places when absent. */
  readonly path?: string;
  /** Whether a carrier package installed beside this one counts (default true; tests of the search turn it off). */
  readonly besideThisPackage?: boolean;
}

/**
 * Files js-debug does not step into: Node's own modules and dependencies. A breakpoint set in one still stops;
 * only stepping passes over them.
 */
const SKIP_FILES = ['<node_internals>/**', '**/node_modules/**'];

/** js-debug's server prints this once it listens, on a port ("127.0.0.1:PORT") or a socket path. */
const TCP: AdapterTransport = { kind: 'tcp', listening: /listening at\s+\S*?:(\d+)/, programOutput: false };
const SOCKET: AdapterTransport = { kind: 'socket', listenArgs: (path) => [path], listening: /listening at\s/, programOutput: false };

/**
 * The first js-debug release known to take a socket path in place of its port (`dapDebugServer.js [port|socket
 * path]`; nixpkgs tests its usage line from 1.91.0 on). Older copies, and copies of unknown version, listen on a port.
 */
const SOCKET_SINCE = [1, 91, 0] as const;

/** Whether a js-debug version (1.112.0) is at least {@link SOCKET_SINCE}. */
export function takesSocketPath(version: string | undefined): boolean {
  const parts = /^v?(\d+)\.(\d+)\.(\d+)/.exec(version ?? '')?.slice(1).map(Number);
  if (!parts) return false;
  for (let i = 0; i < 3; i++) {
    const have = parts[i] as number;
    const need = SOCKET_SINCE[i] as number;
    if (have !== need) return have > need;
  }
  return true;
}

/** What Node prints on the program's stderr about the debugger itself; not the program's output. */
const NODE_DEBUGGER_LINES =
  /^(?:Debugger attached\.|Waiting for the debugger to disconnect\.\.\.|Debugger listening on ws:\/\/\S+|For help, see: https:\/\/nodejs\.org\/\S*)\r?\n/gm;

/**
 * js: Microsoft's js-debug (`pwa-node`), the adapter of VS Code, nvim-dap and oh-my-pi, through its standalone DAP
 * server. It listens on a loopback port; the first connection supervises and every Node process or worker thread
 * of the program arrives as a child session (`startDebugging`), which the session opens on the same port.
 */
export function jsAdapter(options: JsAdapterOptions = {}): AdapterConfig {
  const nodeVersions = new Map<string, string>();
  const nodeOf = (env: NodeJS.ProcessEnv): string => findExecutable('node', searchPath(env)) ?? process.execPath;
  const versionOf = (node: string): string => {
    let version = nodeVersions.get(node);
    if (version === undefined) {
      try {
        version = execFileSync(node, ['--version'], { encoding: 'utf8', timeout: 5000 }).trim();
      } catch {
        // node did not run or answer (spawn, exit or timeout errors only): the version is unknown.
        version = '';
      }
      nodeVersions.set(node, version);
    }
    return version;
  };

  const common = (root: string): Record<string, unknown> => ({
    type: 'pwa-node',
    // js-debug resolves its defaults from the workspace folder: outFiles (${workspaceFolder}/**/*.(m|c|)js, which it
    // scans for source maps before a file loads, so a breakpoint in a .ts file binds in tsc's output) and the places
    // source maps may come from. Without it a breakpoint in a compiled .ts file never binds.
    __workspaceFolder: root,
    skipFiles: SKIP_FILES,
    sourceMaps: true,
    showAsyncStacks: true,
    smartStep: true,
  });

  return {
    id: 'js',
    languages: 'JavaScript, TypeScript (Node.js)',
    extensions: [...JS_EXTENSIONS, ...TS_EXTENSIONS],
    rootMarkers: ['package.json', 'tsconfig.json', 'jsconfig.json'],
    markerOptional: true,
    // A release that takes a socket path listens on one in the session's folder (see `socket` in AdapterTransport).
    transport: SOCKET,
    adapterId: 'pwa-node',
    childSessions: true,
    outputNoise: NODE_DEBUGGER_LINES,
    exceptionNote: 'js-debug offers "all" (caught and uncaught) and "uncaught"',
    async locate(ctx: LocateContext): Promise<LocateResult> {
      const search = findJsDebug({
        ...(options.path ? { explicit: options.path } : {}),
        env: ctx.env,
        root: ctx.root,
        cwd: ctx.cwd,
        besideThisPackage: options.besideThisPackage ?? true,
      });
      if (!('found' in search)) {
        const looked = `looked in ${search.looked.join('; ')}`;
        return { found: false, reason: `${search.explicitProblem ? `${search.explicitProblem}. ` : ''}no js-debug DAP server found (${looked}). To debug JavaScript or TypeScript, ${JS_DEBUG_INSTALL}` };
      }
      const { server, origin, version } = search.found;
      const show = (path: string): string => displayPath(path, ctx.cwd, { home: ctx.env['HOME'] });
      const socket = takesSocketPath(version);
      return {
        found: true,
        command: { command: process.execPath, args: socket ? [server] : [server, '0', '127.0.0.1'] },
        ...(socket ? {} : { transport: TCP }),
        summary: `js-debug${version ? ` ${version}` : ''} from ${origin}: node ${show(server)}`,
        hints: { node: nodeOf(ctx.env) },
      };
    },
    launchProblem: ({ program, root }) => {
      const plan = planProgram(program, root);
      return 'problem' in plan ? plan.problem : undefined;
    },
    runsUnder: ({ program, root, hints }) => {
      const plan = planProgram(program, root);
      if ('problem' in plan) return undefined;
      const node = String(hints['node'] ?? process.execPath);
      const version = versionOf(node);
      return `node${version ? ` ${version}` : ''} (${node})${plan.via === 'node' ? '' : ` through ${plan.via}`}`;
    },
    // The program's pid is in the name js-debug gives its first session ("app.js [1234]").
    exitCode: ({ tempDir, sessionNames }) => {
      const pid = Number(/\[(\d+)\]$/.exec(sessionNames[0] ?? '')?.[1]);
      return Number.isInteger(pid) && pid > 0 ? readExitCode(tempDir, pid) : undefined;
    },
    launchArguments: ({ program, args, root, hints, tempDir }) => {
      const plan = planProgram(program, root);
      if ('problem' in plan) throw new Error(plan.problem);
      return {
        ...common(root),
        request: 'launch',
        name: 'agent-tools',
        program: plan.program,
        args: [...args],
        cwd: root,
        runtimeExecutable: String(hints['node'] ?? process.execPath),
        runtimeArgs: [...exitCodeRuntimeArgs(tempDir), ...plan.runtimeArgs],
        env: { NODE_OPTIONS: inspectorNoDelayOptions(tempDir) },
        console: 'internalConsole',
        // The program's own stdout and stderr, not console.* calls seen through the inspector (which would miss writes).
        outputCapture: 'std',
        autoAttachChildProcesses: true,
        stopOnEntry: false,
      };
    },
    attach: {
      via: 'adapter',
      probe: true,
      listenHint: 'start the program with `node --inspect=127.0.0.1:PORT app.js` (`--inspect-brk` to wait for the debugger before the first line)',
      arguments: ({ port, host, root }) => ({
        ...common(root),
        request: 'attach',
        name: 'agent-tools',
        address: host,
        port,
        cwd: root,
        continueOnAttach: true,
      }),
    },
  };
}
