import { existsSync, realpathSync } from 'node:fs';
import { dirname, extname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { readRegularFileSync } from '@agent-tools/core';

/** Extensions js-debug launches directly with Node. */
export const JS_EXTENSIONS = ['.js', '.mjs', '.cjs'] as const;
/** TypeScript extensions, run through the project's runner or its compiled output. */
export const TS_EXTENSIONS = ['.ts', '.mts', '.cts', '.tsx'] as const;

/** How a program runs under Node: the file Node is given and the options before it. */
export type JsPlan =
  | { readonly program: string; readonly runtimeArgs: readonly string[]; readonly via: string }
  | { readonly problem: string };

/**
 * How to run `program`: JavaScript directly; TypeScript through the project's tsx or ts-node (resolved from the
 * program's folder up, as Node would), else its compiled output when tsc wrote one with a source map. js-debug maps
 * breakpoints and stops onto the TypeScript lines in every case.
 */
export function planProgram(program: string, root: string): JsPlan {
  const ext = extname(program).toLowerCase();
  if ((JS_EXTENSIONS as readonly string[]).includes(ext)) return { program, runtimeArgs: [], via: 'node' };
  if (!(TS_EXTENSIONS as readonly string[]).includes(ext)) return { problem: `js-debug runs .js, .mjs, .cjs and TypeScript files, not ${ext || 'files without an extension'}` };
  const tsx = packageDir(program, 'tsx');
  if (tsx) {
    const loader = tsxLoader(tsx.dir);
    if (loader) return { program, runtimeArgs: ['--import', pathToFileURL(loader).href], via: `tsx ${tsx.version}` };
  }
  const tsNode = packageDir(program, 'ts-node');
  if (tsNode) {
    const esm = ext === '.mts' || nearestType(program) === 'module';
    const hook = esm ? join(tsNode.dir, 'esm.mjs') : join(tsNode.dir, 'register/index.js');
    if (existsSync(hook)) {
      return { program, runtimeArgs: esm ? ['--loader', pathToFileURL(hook).href] : ['--require', hook], via: `ts-node ${tsNode.version}` };
    }
  }
  const compiled = compiledOutput(program, root);
  if (compiled) return { program: compiled, runtimeArgs: [], via: `its compiled output ${relative(root, compiled) || compiled} (source-mapped)` };
  return {
    problem:
      'it is TypeScript and the project has no way to run it: install tsx (`npm i -D tsx`) or ts-node, or compile it with source maps ' +
      '(`tsc --sourceMap`) and launch it again (the compiled .js is found through tsconfig.json\'s outDir) — breakpoints in the .ts files stop either way',
  };
}

/**
 * A package in a node_modules folder from the program's folder up: the project's own, not one reached through
 * NODE_PATH or Node's global folders (a package manager's shim sets NODE_PATH to its store).
 */
function packageDir(program: string, name: string): { dir: string; version: string } | undefined {
  for (let dir = dirname(program); ; dir = dirname(dir)) {
    const manifest = join(dir, 'node_modules', name, 'package.json');
    try {
      const version = (JSON.parse(readProjectFile(manifest)) as { version?: string }).version ?? '';
      return { dir: dirname(realpathSync(manifest)), version };
    } catch {
      // Not here: look further up.
    }
    if (dirname(dir) === dir) return undefined;
  }
}

/** tsx's `--import` entry, from its package exports (`dist/loader.mjs` in tsx 4). */
function tsxLoader(dir: string): string | undefined {
  try {
    const manifest = JSON.parse(readProjectFile(join(dir, 'package.json'))) as { exports?: Record<string, unknown> };
    const entry = manifest.exports?.['.'];
    const target = typeof entry === 'string' ? entry : ((entry as Record<string, unknown> | undefined)?.['import'] ?? (entry as Record<string, unknown> | undefined)?.['default']);
    const path = typeof target === 'string' ? join(dir, target) : join(dir, 'dist/loader.mjs');
    return existsSync(path) ? path : undefined;
  } catch {
    // Not resolvable, or an unreadable manifest (resolution, file-system or JSON errors only): no loader.
    return undefined;
  }
}

function nearestType(program: string): string | undefined {
  for (let dir = dirname(program); ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      try {
        return (JSON.parse(readProjectFile(manifest)) as { type?: string }).type;
      } catch {
        // A missing or malformed package.json (file-system or JSON errors only): no module type.
        return undefined;
      }
    }
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * The .js tsc wrote for `program` with a source map: beside it, or under the nearest tsconfig.json's outDir (the
 * file's path below rootDir, or below the tsconfig's folder), as long as the .js names a source map.
 */
function compiledOutput(program: string, root: string): string | undefined {
  const outExt = { '.ts': '.js', '.tsx': '.js', '.mts': '.mjs', '.cts': '.cjs' }[extname(program).toLowerCase()] ?? '.js';
  const base = program.slice(0, -extname(program).length);
  const candidates = [`${base}${outExt}`];
  for (let dir = dirname(program); ; dir = dirname(dir)) {
    const tsconfig = join(dir, 'tsconfig.json');
    if (existsSync(tsconfig)) {
      const options = readCompilerOptions(tsconfig);
      if (options.outDir) {
        const rootDir = resolve(dir, options.rootDir ?? '.');
        const below = relative(rootDir, base);
        if (!below.startsWith('..')) candidates.push(join(resolve(dir, options.outDir), `${below}${outExt}`));
        // Without rootDir, tsc uses the common folder of the inputs, often src/.
        if (!options.rootDir) candidates.push(join(resolve(dir, options.outDir), `${relative(join(dir, 'src'), base)}${outExt}`));
      }
      break;
    }
    if (dir === root || dirname(dir) === dir) break;
  }
  return candidates.find((file) => {
    try {
      return existsSync(file) && /\/\/# sourceMappingURL=/.test(readProjectFile(file));
    } catch {
      // A file-system error or not_regular_file: no source map.
      return false;
    }
  });
}

function readCompilerOptions(tsconfig: string): { outDir?: string; rootDir?: string } {
  try {
    // tsconfig.json allows comments and trailing commas.
    const text = readProjectFile(tsconfig)
      .replace(/("(?:[^"\\]|\\.)*")|\/\/[^\n]*|\/\*[\s\S]*?\*\//g, (_m, str: string | undefined) => str ?? '')
      .replace(/,(\s*[}\]])/g, '$1');
    const options = (JSON.parse(text) as { compilerOptions?: { outDir?: string; rootDir?: string } }).compilerOptions ?? {};
    return options;
  } catch {
    // A missing or malformed tsconfig (file-system or JSON errors only): no options.
    return {};
  }
}

/**
 * A file of the project, read on the harness's main thread: a FIFO or a device (a tsconfig.json or package.json that
 * is a named pipe) is refused by core's reader instead of blocking the thread, and with it every signal, for good.
 */
function readProjectFile(path: string): string {
  return readRegularFileSync(path).toString('utf8');
}
