import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync } from 'node:fs';
import { basename, delimiter, join } from 'node:path';
import { displayPath } from '@agent-tools/core';
import { findExecutable, isExecutable, projectBinDirs, searchPath } from '@agent-tools/core/internal';
import { plainHitCondition } from '../session/hit-condition.js';
import type { AdapterConfig, LocateContext, LocateResult } from './adapter.js';
import { DEBUGPY_ADAPTER_MAIN } from './debugpy-launcher.js';
import { probe } from './locate.js';

const CHECK_TTL_MS = 30_000;

/**
 * debugpy: `python -m debugpy.adapter` over stdio. The interpreter comes from the project's `.venv/bin` or
 * `venv/bin` before `$PATH`: the Python on `$PATH` is often another environment, and a program run under the
 * wrong one fails in ways that look like broken code. The adapter itself needs an interpreter that can import
 * debugpy; when the project's own cannot, the adapter runs under one that can and still launches the program
 * with the project's interpreter (debugpy injects itself into the debuggee).
 */
export function debugpyAdapter(): AdapterConfig {
  const checked = new Map<string, { at: number; version: string | undefined }>();

  const debugpyVersion = async (python: string, signal?: AbortSignal): Promise<string | undefined> => {
    const cached = checked.get(python);
    if (cached && Date.now() - cached.at < CHECK_TTL_MS) return cached.version;
    const version = await probe(python, ['-c', 'import debugpy; print(debugpy.__version__)'], 8000, signal);
    checked.set(python, { at: Date.now(), version: version || undefined });
    return version || undefined;
  };

  return {
    id: 'debugpy',
    languages: 'Python',
    extensions: ['.py'],
    rootMarkers: ['pyproject.toml', 'setup.py', 'requirements.txt'],
    transport: { kind: 'stdio' },
    adapterId: 'debugpy',
    async locate(ctx: LocateContext): Promise<LocateResult> {
      const show = (path: string): string => displayPath(path, ctx.cwd, { home: ctx.env['HOME'] });
      const project = projectInterpreters(ctx.root, ctx.cwd);
      const onPath = ['python3', 'python'].map((name) => findExecutable(name, searchPath(ctx.env))).filter((p): p is string => !!p);
      const candidates = [...new Set([...project, ...onPath, '/usr/bin/python3'])].filter(isExecutable);
      const notes: string[] = [];
      if (project.length === 0) notes.push(`no .venv/bin/python or venv/bin/python in ${show(ctx.root)}`);
      // Checked together (a pyenv shim alone takes a few hundred ms), chosen in order.
      const versions = await Promise.all(candidates.map((python) => debugpyVersion(python, ctx.signal)));
      // The program runs under the project's interpreter, else the python3 on PATH, whether or not it has debugpy:
      // the adapter's launcher injects debugpy into it. Only the adapter needs an interpreter that imports debugpy.
      const pathPython = ['python3', 'python'].map((name) => findExecutable(name, searchPath(ctx.env))).find((p): p is string => !!p);
      for (const [index, python] of candidates.entries()) {
        const version = versions[index];
        if (!version) {
          notes.push(`${show(python)} cannot import debugpy`);
          continue;
        }
        const debuggee = project[0] ?? pathPython ?? python;
        return {
          found: true,
          command: { command: python, args: ['-c', DEBUGPY_ADAPTER_MAIN] },
          summary: `${show(python)} -m debugpy.adapter (debugpy ${version})`,
          ...(debuggee === python ? {} : { programNote: `the program runs under ${show(debuggee)}` }),
          hints: { python: debuggee, adapterPython: python },
        };
      }
      if (candidates.length === 0) notes.push('no python3 or python on PATH');
      return {
        found: false,
        reason: `no Python that can import debugpy: ${notes.join('; ')}. Install debugpy into the project's .venv (or apt install python3-debugpy).`,
      };
    },
    // pydevd stops when the hit condition holds, else when the condition does: together they would mean "either".
    hitCondition: (condition, { withCondition }) =>
      withCondition
        ? { unsupported: 'debugpy stops when either the condition or the hit condition holds, not only when both do: give one of them' }
        : plainHitCondition(condition),
    // pydevd compares a function breakpoint with the code object's bare name, and answers "verified" for any name.
    functionBreakpointProblem: (name) => {
      const bare = name.slice(name.lastIndexOf('.') + 1);
      return bare !== name && bare
        ? `debugpy matches a function breakpoint by the function's own name, without module or class: use "${bare}" (it stops in every function of that name)`
        : undefined;
    },
    takesInterpreter: true,
    runsUnder: ({ hints, interpreter }) => {
      const python = interpreter ?? String(hints['python']);
      const version = pythonVersion(python);
      return `${python}${version ? ` (Python ${version})` : ''}${interpreter ? ', as you asked' : ''}`;
    },
    launchArguments: ({ program, args, root, hints, interpreter, tempDir }) => ({
      type: 'python',
      request: 'launch',
      program,
      args: [...args],
      cwd: root,
      console: 'internalConsole',
      python: [interpreter ?? String(hints['python'])],
      ...injectedEnv(interpreter ?? String(hints['python']), String(hints['adapterPython'] ?? ''), tempDir),
      justMyCode: true,
      subProcess: false,
      redirectOutput: true,
      stopOnEntry: false,
      showReturnValue: true,
    }),
    // `python -m debugpy --listen PORT` starts its own adapter, which serves DAP on that port: connect to it.
    attach: {
      via: 'connect',
      listenHint: 'start the program with `python3 -m debugpy --listen 127.0.0.1:PORT --wait-for-client app.py`',
      arguments: () => ({
        type: 'python',
        request: 'attach',
        justMyCode: true,
        subProcess: false,
        showReturnValue: true,
      }),
    },
  };
}

/**
 * The environment that lets an interpreter without debugpy run under it. debugpy's launcher injects debugpy itself,
 * but Debian's debugpy uses pydevd with an unvendored `bytecode` module, which such an interpreter cannot import
 * ("Timed out waiting for debuggee to spawn"). Only that module is added, through a private folder of links, so the
 * program does not see the rest of the adapter's site-packages.
 */
function injectedEnv(python: string, adapterPython: string, tempDir: string): { env?: Record<string, string> } {
  if (!adapterPython || python === adapterPython || canImport(python, 'debugpy')) return {};
  const location = moduleDir(adapterPython, 'bytecode');
  if (!location) return {};
  const dir = join(tempDir, 'debugpy-deps');
  mkdirSync(dir, { recursive: true });
  try {
    symlinkSync(location, join(dir, basename(location)));
  } catch {
    // Already linked by an earlier launch of this session.
  }
  const existing = process.env['PYTHONPATH'];
  return { env: { PYTHONPATH: existing ? `${dir}${delimiter}${existing}` : dir } };
}

const imports = new Map<string, boolean>();

function canImport(python: string, module: string): boolean {
  const key = `${python}\0${module}`;
  let ok = imports.get(key);
  if (ok === undefined) {
    try {
      execFileSync(python, ['-c', `import ${module}`], { stdio: 'ignore', timeout: 8000 });
      ok = true;
    } catch {
      // The import failed (a non-zero exit, a timeout or a spawn error only): the module is missing.
      ok = false;
    }
    imports.set(key, ok);
  }
  return ok;
}

function moduleDir(python: string, module: string): string | undefined {
  try {
    const path = execFileSync(python, ['-c', `import os, ${module}; print(os.path.dirname(${module}.__file__))`], { encoding: 'utf8', timeout: 8000 }).trim();
    return path || undefined;
  } catch {
    // The interpreter did not answer (exit, timeout or spawn errors only): not found.
    return undefined;
  }
}

const pythonVersions = new Map<string, string>();

/** An interpreter's version ("3.11.2"), asked once per path; empty when it does not run. */
function pythonVersion(python: string): string {
  let version = pythonVersions.get(python);
  if (version === undefined) {
    try {
      version = execFileSync(python, ['-c', 'import sys; print(sys.version.split()[0])'], { encoding: 'utf8', timeout: 5000 }).trim();
    } catch {
      // The interpreter did not answer (exit, timeout or spawn errors only): the version is unknown.
      version = '';
    }
    pythonVersions.set(python, version);
  }
  return version;
}

/** The project's own interpreters: `.venv` or `venv` from the root up to the working directory, nearest first. */
function projectInterpreters(root: string, cwd: string): string[] {
  const found: string[] = [];
  for (const dir of projectBinDirs(root, cwd, ['.venv/bin', 'venv/bin'])) {
    for (const name of ['python3', 'python']) {
      const path = join(dir, name);
      if (isExecutable(path) && !found.includes(path)) found.push(path);
    }
  }
  return found;
}
