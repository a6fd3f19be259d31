import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '@agent-tools/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { npmProject, TYPESCRIPT } from '../src/npm-project.js';
import { readmeSamples } from '../src/readme-samples.js';
import { exec, pack, ROOT, workspacePackages } from '../src/workspace.js';

const packages = workspacePackages();
const packsDir = tempDir({}, 'agent-tools-packs-');
const packs = packsDir.path;
const tarballs = new Map<string, string>();
// The `ai` major the adapter's types are built against.
const adapterDevDependencies = packages.find((p) => p.dir === 'ai-sdk')?.manifest['devDependencies'] as Record<string, string>;
const AI = `ai@${adapterDevDependencies['ai']}`;
const fixture = (name: string) => readFileSync(join(ROOT, 'tools/packed-install/fixtures', name), 'utf8');

/** The compiler settings a strict user project has: no skipLibCheck, so every published type is checked. */
const STRICT = { target: 'es2022', strict: true, skipLibCheck: false, types: ['node'], lib: ['es2023', 'esnext.disposable'] };
/** What `ai`'s own types need (its README says so): the DOM lib for fetch's types. */
const WITH_DOM = { lib: ['es2023', 'esnext.disposable', 'dom'] };
const NODENEXT = { ...STRICT, module: 'nodenext', moduleResolution: 'nodenext' };
const BUNDLER = { ...STRICT, module: 'esnext', moduleResolution: 'bundler', noEmit: true };

beforeAll(async () => {
  for (const pkg of packages) tarballs.set(pkg.name, await pack(pkg, packs));
});
afterAll(() => packsDir.remove());

function tarball(name: string): string {
  const path = tarballs.get(name);
  if (!path) throw new Error(`no tarball of ${name}`);
  return path;
}

describe('every tarball', () => {
  it.each(packages.map((p) => [p.name]))('%s: LICENSE, README, metadata and peers as published', async (name) => {
    const files = (await exec('tar', ['-tzf', tarball(name)], packs)).stdout.split('\n');
    expect(files).toEqual(expect.arrayContaining(['package/LICENSE', 'package/README.md', 'package/dist/index.js', 'package/dist/index.d.ts']));
    // The keeper program ships as a .py file beside the compiled module that reads it.
    if (name === '@agent-tools/core') expect(files).toContain('package/dist/process/keeper.py');
    if (name === '@agent-tools/eval') {
      for (const program of ['jupyter/kernel-group.py', 'jupyter/launcher.py', 'python/prelude.py']) {
        expect(files).toContain(`package/dist/${program}`);
      }
    }
    const manifest = JSON.parse((await exec('tar', ['-xzOf', tarball(name), 'package/package.json'], packs)).stdout);
    expect(manifest).toMatchObject({
      license: 'MIT',
      type: 'module',
      engines: { node: '>=20.19' },
      repository: { type: 'git', url: expect.stringMatching(/^git\+https:\/\/github\.com\/.+\.git$/) },
      homepage: expect.stringMatching(/^https:\/\//),
      bugs: { url: expect.stringMatching(/^https:\/\//) },
      keywords: expect.arrayContaining(['agent', 'llm', 'tools']),
      exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' }, './package.json': './package.json' },
    });
    expect(JSON.stringify(manifest)).not.toContain('workspace:');
    // One copy of core and of zod in a user's project: the user's own.
    const peers = manifest.peerDependencies ?? {};
    if (name !== '@agent-tools/core') expect(peers['@agent-tools/core']).toMatch(/^\^\d/);
    for (const deps of [manifest.dependencies ?? {}, manifest.optionalDependencies ?? {}]) {
      expect(Object.keys(deps).filter((d) => d.startsWith('@agent-tools/') || d === 'zod')).toEqual([]);
    }
    if (name !== '@agent-tools/ai-sdk') expect(peers['zod']).toBe('^4.0.0');
    expect(readFileSync(join(ROOT, 'LICENSE'), 'utf8')).toBe(
      (await exec('tar', ['-xzOf', tarball(name), 'package/LICENSE'], packs)).stdout,
    );
  });

  it.each(packages.map((p) => [p.name]))('%s: the README starts with how to install it', async (name) => {
    const readme = (await exec('tar', ['-xzOf', tarball(name), 'package/README.md'], packs)).stdout;
    const firstSection = readme.split(/^## /m)[1] ?? '';
    expect(firstSection.split('\n')[0]).toBe('Install');
    expect(firstSection).toContain(`npm i ${name}`);
    for (const needed of ['ESM', 'require()', 'Node.js >= 20.19', 'zod']) expect(firstSection).toContain(needed);
    expect(firstSection).toMatch(/system components|on `PATH`|Python 3|POSIX/);
    // Until the first release that npm command answers 404: the section says where the way that works is written.
    expect(firstSection).toContain('https://github.com/agent-tools/agent-tools#installing-the-packages');
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8')).toMatch(/^## Installing the packages$/m);
  });

  it.each(packages.map((p) => [p.name]))('%s: are-the-types-wrong finds nothing', async (name) => {
    // require() of an ES module is supported from Node 20.19 (the engines floor), so "CJS resolves to ESM" is
    // not a problem here; the packed-install test below requires every package for real.
    const attw = join(ROOT, 'node_modules/.bin/attw');
    const { stdout } = await exec(attw, [tarball(name), '--ignore-rules', 'cjs-resolves-to-esm', '--format', 'ascii'], packs);
    expect(stdout).toMatch(/No problems found/);
  });
});

describe('a cherry-picked subset installed from the tarballs with npm', () => {
  const picked = ['@agent-tools/core', '@agent-tools/ast', '@agent-tools/ask', '@agent-tools/ai-sdk'];
  const project = npmProject('subset');
  afterAll(() => project[Symbol.asyncDispose]());

  it('installs without pulling in any other @agent-tools package', async () => {
    await project.install([...picked.map(tarball), 'zod@^4', AI, TYPESCRIPT, '@types/node@^20.19']);
    expect(project.scope('@agent-tools')).toEqual(['ai-sdk', 'ask', 'ast', 'core']);
    expect(project.scope('@agent-tools').length).toBe(picked.length);
  });

  it('typechecks a program against the published types with nodenext and with bundler resolution', async () => {
    project.write({ 'src/main.ts': fixture('subset/main.ts') });
    const nodenext = await project.tsc({ compilerOptions: { ...NODENEXT, ...WITH_DOM, outDir: 'dist', rootDir: 'src' }, include: ['src'] });
    expect(nodenext.output).toBe('');
    expect(nodenext.ok).toBe(true);
    const bundler = await project.tsc({ compilerOptions: { ...BUNDLER, ...WITH_DOM }, include: ['src'] });
    expect(bundler.output).toBe('');
    expect(bundler.ok).toBe(true);
  });

  it('runs it: tools of two packages, through the AI SDK adapter and the model-API converters', async () => {
    const { stdout } = await project.node(['dist/main.js']);
    const outcome = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}');
    expect(outcome.direct).toContain('console.log("hi " + name)');
    expect(outcome.loop).toBe('done');
    expect(outcome.toolResult).toMatchObject({ isError: false });
    expect(outcome.planTools).toEqual(['ast_grep', 'ast_tree', 'ask_user']);
    expect(outcome).toMatchObject({ anthropic: 3, openaiStrict: true, gemini: 3 });
  });

  it('require()s every picked package from CommonJS', async () => {
    project.write({ 'check.cjs': fixture('subset/check.cjs') });
    const { stdout } = await project.node(['check.cjs']);
    expect(JSON.parse(stdout)).toEqual(['function', 'object', 'object', 'function']);
  });
});

describe('a project that still has zod 3', () => {
  const project = npmProject('zod3');
  afterAll(() => project[Symbol.asyncDispose]());

  it('is told by npm that zod 4 is wanted, and by defineTool that its schema needs zod 4', async () => {
    // npm refuses the peer conflict outright; a user who forces it past must still get a sentence, not a crash.
    await expect(project.install([tarball('@agent-tools/core'), 'zod@3.23.8'])).rejects.toThrow(/ERESOLVE|peer zod@"\^4/);
    await project.install([tarball('@agent-tools/core'), 'zod@3.23.8', '--legacy-peer-deps']);
    project.write({ 'zod3.mjs': fixture('zod3.mjs') });
    const { stdout } = await project.node(['zod3.mjs']);
    expect(stdout.trim()).toBe(
      '[agent-tools/core] Tool "hover" needs a zod 4 schema for its parameters, and got a zod 3 schema. Install zod 4 in your project (npm i zod@^4) and build the schema with it.',
    );
  });
});

describe('README samples against the packed packages', () => {
  const project = npmProject('readme-samples');
  afterAll(() => project[Symbol.asyncDispose]());
  const samples = readmeSamples();

  it('finds the samples of every README', () => {
    expect(samples.length).toBeGreaterThanOrEqual(packages.length);
  });

  it('install every package from its tarball', async () => {
    // Install scripts are skipped: nothing runs here.
    await project.install([...packages.map((p) => tarball(p.name)), 'zod@^4', AI, TYPESCRIPT, '@types/node@^20.19'], {
      ignoreScripts: true,
    });
    expect(project.scope('@agent-tools')).toEqual(packages.map((p) => p.dir).sort());
  });

  it('every published type checks with skipLibCheck off and no DOM lib (the AI SDK and MCP adapters with it, as ai and the MCP SDK need it)', async () => {
    // ai's and @modelcontextprotocol/sdk's own types name fetch's types (HeadersInit, Response), which only the DOM lib declares.
    const needsDom = (p: (typeof packages)[number]) => p.dir === 'ai-sdk' || p.dir === 'mcp';
    const entriesOf = (list: typeof packages) =>
      list.flatMap((p) => Object.keys(p.manifest['exports'] as object).filter((k) => k !== './package.json').map((k) => p.name + k.slice(1)));
    const module = (entries: string[]) =>
      `${entries.map((e, i) => `import * as entry${i} from '${e}';`).join('\n')}\nexport const all = [${entries.map((_, i) => `entry${i}`).join(', ')}];\n`;
    project.write({
      'entries/every-entry.ts': module(entriesOf(packages.filter((p) => !needsDom(p)))),
      'entries-dom/every-entry.ts': module(entriesOf(packages.filter(needsDom))),
    });
    for (const options of [NODENEXT, BUNDLER]) {
      const result = await project.tsc({ compilerOptions: { ...options, noEmit: true }, include: ['entries'] });
      expect(result.output).toBe('');
      expect(result.ok).toBe(true);
      const dom = await project.tsc({ compilerOptions: { ...options, ...WITH_DOM, noEmit: true }, include: ['entries-dom'] });
      expect(dom.output).toBe('');
      expect(dom.ok).toBe(true);
    }
  });

  it('works without install scripts: ast searches with its .wasm grammars, eval runs a JavaScript cell on zeromq', async () => {
    // This project was installed with --ignore-scripts: none of the scripts npm 11 warns about has run.
    project.write({ 'no-scripts.mjs': fixture('no-scripts.mjs') });
    const { stdout } = await project.node(['no-scripts.mjs']);
    const outcome = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}');
    expect(outcome.python).toContain('print(x)');
    expect(outcome.typescript).toContain('console.log(1)');
    expect(outcome.javascript).toMatch(/Out\[1\]: 42$/);
  });

  it("core's worked defineTool example compiles, runs, and prints what its comment says", async () => {
    const sample = samples.find((s) => s.origin.startsWith('packages/core/README.md') && s.code.includes("name: 'save'"));
    if (!sample) throw new Error('the worked example (a tool named "save") is gone from packages/core/README.md');
    const promised = /console\.log\(result\.isError, result\.content\); \/\/ (.+)$/m.exec(sample.code)?.[1];
    expect(promised).toBeDefined();
    project.write({ 'worked/save.ts': sample.code });
    const built = await project.tsc({ compilerOptions: { ...NODENEXT, outDir: 'worked-dist', rootDir: 'worked' }, include: ['worked'] });
    expect(built.output).toBe('');
    const { stdout } = await project.node(['worked-dist/save.js']);
    expect(stdout.trim()).toBe(promised);
    expect(readFileSync(join(project.path, 'notes.md'), 'utf8')).toBe('# Notes\n');
  });

  it('every README sample typechecks, with nodenext and with bundler resolution', async () => {
    project.write(Object.fromEntries(samples.map((s) => [s.file, s.code])));
    for (const options of [NODENEXT, BUNDLER]) {
      const result = await project.tsc({ compilerOptions: { ...options, ...WITH_DOM, noEmit: true }, include: ['samples'] });
      expect(annotate(result.output, samples)).toBe('');
      expect(result.ok).toBe(true);
    }
  });
});

/** tsc's output with each sample file named by the README it came from. */
function annotate(output: string, samples: ReturnType<typeof readmeSamples>): string {
  let text = output;
  for (const sample of samples) text = text.replaceAll(sample.file, `${sample.file} (${sample.origin.replace(/:\d+$/, '')})`);
  return text.trim();
}
