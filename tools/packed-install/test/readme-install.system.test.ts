import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { npmProject } from '../src/npm-project.js';
import { exec, ROOT, workspacePackages } from '../src/workspace.js';

// The root README's words for installing the packages before their first release, run as written in a fresh npm
// project: only the clone's path is filled in.
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const section = readme.split(/^## Installing the packages$/m)[1]?.split(/^## /m)[0] ?? '';
const commands = /```sh\n([^`]*)```/.exec(section)?.[1] ?? '';

describe("the README's install from tarballs, in a fresh project", () => {
  const project = npmProject('readme-install');
  afterAll(() => project[Symbol.asyncDispose]());

  it('is written as commands with one placeholder, the path of the clone', () => {
    expect(commands).toMatch(/^AGENT_TOOLS=\/path\/to\/agent-tools\s/m);
    expect(commands).toContain('pack-packages');
  });

  it('installs the named packages from the tarballs, and they load', async () => {
    const script = commands.replace(/^AGENT_TOOLS=\S+/m, `AGENT_TOOLS='${ROOT}'`);
    await exec('sh', ['-eu', '-c', script], project.path);
    expect(project.scope('@agent-tools')).toEqual(['core', 'lsp']);
    const manifest = JSON.parse(readFileSync(join(project.path, 'package.json'), 'utf8'));
    expect(Object.keys(manifest.dependencies).sort()).toEqual(['@agent-tools/core', '@agent-tools/lsp', 'zod']);
    const { stdout } = await project.node(['--input-type=module', '-e', "const m = await import('@agent-tools/lsp'); console.log(typeof m.lspTools, typeof m.createLspSupervisor)"]);
    expect(stdout.trim()).toBe('object function');
  });

  it('packed one tarball per published package, and none of a private tool', () => {
    const tarballs = readdirSync(join(ROOT, 'packs')).sort();
    expect(tarballs).toEqual(workspacePackages().map((p) => `agent-tools-${p.dir}-${p.manifest['version']}.tgz`).sort());
  });
});
