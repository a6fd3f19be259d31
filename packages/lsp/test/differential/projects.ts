import { cpSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { listSourceFiles } from '../../src/discovery/root.js';
import type { DirectServer } from './direct-client.js';

const require = createRequire(import.meta.url);

/** A real project no one here wrote, copied into a temporary working directory, and how to drive its server directly. */
export interface RealProject {
  readonly name: string;
  /** Copies the project into `dir` (the working directory) and returns its source files. */
  prepare(dir: string): string[];
  readonly server: (dir: string) => DirectServer;
}

const TS_LS = join(dirname(require.resolve('typescript-language-server/package.json')), 'lib', 'cli.mjs');
const TSSERVER = join(dirname(require.resolve('typescript/package.json')), 'lib', 'tsserver.js');
const PYRIGHT = join(dirname(require.resolve('pyright/package.json')), 'langserver.index.js');

/** rxjs 7's TypeScript sources, from npm. */
export const rxjs: RealProject = {
  name: 'TypeScript (rxjs from npm)',
  prepare(dir) {
    cpSync(join(dirname(require.resolve('rxjs/package.json')), 'src'), dir, { recursive: true, filter: (src) => !/tsconfig.*\.json$/.test(src) });
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { target: 'es2017', lib: ['es2018', 'dom'], module: 'commonjs', moduleResolution: 'node', strict: true, noEmit: true, skipLibCheck: true }, include: ['**/*.ts'] }),
    );
    return listSourceFiles(dir, ['.ts'], 1000).files;
  },
  server: () => ({
    command: process.execPath,
    args: [TS_LS, '--stdio'],
    languageId: () => 'typescript',
    // Without useSyntaxServer "never" the server answers from a single file while the project loads.
    initializationOptions: { tsserver: { useSyntaxServer: 'never', path: TSSERVER } },
  }),
};

/** requests, from Debian's python3-requests. */
export const requests: RealProject = {
  name: 'Python (requests from Debian)',
  prepare(dir) {
    cpSync('/usr/lib/python3/dist-packages/requests', join(dir, 'requests'), { recursive: true, filter: (src) => !src.includes('__pycache__') });
    writeFileSync(join(dir, 'pyproject.toml'), '[project]\nname = "requests-copy"\n');
    return listSourceFiles(dir, ['.py'], 1000).files;
  },
  server: () => ({
    command: process.execPath,
    args: [PYRIGHT, '--stdio'],
    languageId: () => 'python',
    // The settings a harness would give pyright (the package gives the same).
    settings: {
      python: { analysis: { diagnosticMode: 'openFilesOnly', autoSearchPaths: true, useLibraryCodeForTypes: true } },
      'python.analysis': { diagnosticMode: 'openFilesOnly', autoSearchPaths: true, useLibraryCodeForTypes: true },
    },
    loaded: /^(Found \d+ source files?|No source files found)/,
  }),
};

/** Go's encoding/json, from Debian's golang-go, as a module of its own (it imports only the standard library). */
export const goJson: RealProject = {
  name: 'Go (encoding/json from Debian)',
  prepare(dir) {
    const source = '/usr/lib/go/src/encoding/json';
    for (const file of readdirSync(source).filter((f) => f.endsWith('.go'))) cpSync(join(source, file), join(dir, file));
    writeFileSync(join(dir, 'go.mod'), 'module example.com/json\n\ngo 1.19\n');
    return listSourceFiles(dir, ['.go'], 1000).files;
  },
  server: () => ({ command: 'gopls', args: [], languageId: () => 'go' }),
};

/** curl's C examples, from Debian's libcurl4-doc, with a compilation database listing them. */
export const curl: RealProject = {
  name: 'C (curl examples from Debian)',
  prepare(dir) {
    const source = '/usr/share/doc/libcurl4/examples';
    mkdirSync(dir, { recursive: true });
    const files = readdirSync(source).filter((f) => f.endsWith('.c')).sort();
    for (const file of files) cpSync(join(source, file), join(dir, file));
    writeFileSync(join(dir, 'compile_commands.json'), JSON.stringify(files.map((file) => ({ directory: dir, file, arguments: ['cc', '-c', file] }))));
    return files.map((file) => join(dir, file));
  },
  server: () => ({ command: 'clangd-19', args: ['--log=error', '--limit-references=0'], languageId: () => 'c' }),
};

/** curl's examples with libcurl's headers copied into include/curl, found there first (-Iinclude). */
export const curlWithHeaders: RealProject = {
  name: 'C (curl examples and libcurl headers from Debian)',
  prepare(dir) {
    const examples = curl.prepare(dir);
    const headers = '/usr/include/x86_64-linux-gnu/curl';
    mkdirSync(join(dir, 'include', 'curl'), { recursive: true });
    for (const header of readdirSync(headers)) cpSync(join(headers, header), join(dir, 'include', 'curl', header));
    const names = examples.map((f) => relative(dir, f));
    writeFileSync(join(dir, 'compile_commands.json'), JSON.stringify(names.map((file) => ({ directory: dir, file, arguments: ['cc', '-Iinclude', '-c', file] }))));
    return examples;
  },
  server: curl.server,
};
