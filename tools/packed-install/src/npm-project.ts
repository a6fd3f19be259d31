import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { exec, ROOT } from './workspace.js';

/** A fresh npm project in a temporary directory, as a user of the packages would make one. */
export interface NpmProject extends AsyncDisposable {
  readonly path: string;
  /** Writes files relative to the project. */
  write(files: Readonly<Record<string, string>>): void;
  /** `npm install` of tarballs and registry specs, as a user would type it. */
  install(specs: readonly string[], options?: { ignoreScripts?: boolean }): Promise<void>;
  /** The packages installed under a scope (`@agent-tools`). */
  scope(name: string): string[];
  /** Runs the project's TypeScript compiler with a tsconfig written for the run; resolves with its output. */
  tsc(tsconfig: Record<string, unknown>): Promise<{ ok: boolean; output: string }>;
  /** Runs node in the project. */
  node(args: readonly string[]): Promise<{ stdout: string; stderr: string }>;
}

/** Creates a fresh npm project (`"type": "module"` unless told otherwise). */
export function npmProject(name: string, type: 'module' | 'commonjs' = 'module'): NpmProject {
  const path = realpathSync(mkdtempSync(join(tmpdir(), `agent-tools-${name}-`)));
  const write = (files: Readonly<Record<string, string>>): void => {
    for (const [file, content] of Object.entries(files)) {
      mkdirSync(dirname(join(path, file)), { recursive: true });
      writeFileSync(join(path, file), content);
    }
  };
  write({ 'package.json': `${JSON.stringify({ name, version: '1.0.0', private: true, type }, null, 2)}\n` });
  // The machine's own npm, with no workspace around it: the project must stand on what it installs.
  const npm = (args: readonly string[]) =>
    exec('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], path, { npm_config_workspaces: 'false' });
  return {
    path,
    write,
    async install(specs, options = {}) {
      await npm(['install', ...(options.ignoreScripts ? ['--ignore-scripts'] : []), ...specs]);
    },
    scope(scope) {
      try {
        return readdirSync(join(path, 'node_modules', scope)).sort();
      } catch {
        return [];
      }
    },
    async tsc(tsconfig) {
      write({ 'tsconfig.check.json': `${JSON.stringify(tsconfig, null, 2)}\n` });
      try {
        const { stdout } = await exec(join(path, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.check.json'], path);
        return { ok: true, output: stdout };
      } catch (error) {
        const cause = (error as Error).cause as { stdout?: string } | undefined;
        return { ok: false, output: cause?.stdout || (error as Error).message };
      }
    },
    node: (args) => exec(process.execPath, args, path),
    async [Symbol.asyncDispose]() {
      rmSync(path, { recursive: true, force: true });
    },
  };
}

/** The TypeScript the workspace builds with, so a sample compiles with the same compiler a user would pick. */
export const TYPESCRIPT = `typescript@${(JSON.parse(readFileSync(join(ROOT, 'node_modules/typescript/package.json'), 'utf8')) as { version: string }).version}`;
