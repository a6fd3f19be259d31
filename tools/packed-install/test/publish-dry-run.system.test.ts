import { chmodSync, existsSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '@agent-tools/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exec, ROOT, workspacePackages } from '../src/workspace.js';

// The release flow, for real up to the upload: `changeset version`, then `changeset publish`, in a scratch copy of
// the repository. The `pnpm` that changesets runs is a recorder in front of the real one that adds `--dry-run` to
// every publish, so nothing can reach the registry, and keeps each publish's arguments and npm's JSON report.
const packages = workspacePackages();
const scratchDir = tempDir({}, 'agent-tools-release-');
const scratch = scratchDir.path;
const shims = join(scratch, '.shims');
const records = join(scratch, '.publishes');
const CHANGESET = join(ROOT, 'node_modules/@changesets/cli/bin.js');
let versionOutput = '';
let publishOutput = '';

interface Publish {
  readonly args: string;
  readonly report: Record<string, { name: string; version: string; files: { path: string }[] }>;
}

function publishOf(dir: string): Publish | undefined {
  const file = join(records, `${dir}.json`);
  if (!existsSync(file)) return undefined;
  const report = JSON.parse(readFileSync(file, 'utf8'));
  return { args: readFileSync(join(records, `${dir}.args`), 'utf8').trim(), report };
}

beforeAll(async () => {
  // The working tree as it is (built packages included), without its git history and root node_modules, which is
  // linked: the packages' own node_modules hold relative links into it.
  await exec('sh', ['-c', `tar --exclude=./node_modules --exclude=./.git --exclude=./packs -cf - . | tar -xf - -C "${scratch}"`], ROOT);
  symlinkSync(join(ROOT, 'node_modules'), join(scratch, 'node_modules'));
  const pnpm = (await exec('sh', ['-c', 'command -v pnpm'], ROOT)).stdout.trim();
  await exec('mkdir', ['-p', shims, records], ROOT);
  writeFileSync(
    join(shims, 'pnpm'),
    `#!/bin/sh
if [ "$1" = publish ]; then
  name=$(basename "$PWD")
  printf '%s\\n' "$*" > "${records}/$name.args"
  shift
  "${pnpm}" publish --dry-run "$@" > "${records}/$name.json"
  status=$?
  cat "${records}/$name.json"
  exit $status
fi
exec "${pnpm}" "$@"
`,
  );
  chmodSync(join(shims, 'pnpm'), 0o755);
  const env = { PATH: `${shims}:${process.env['PATH']}`, CI: '1' };
  versionOutput = (await exec(process.execPath, [CHANGESET, 'version'], scratch, env)).stdout;
  const published = await exec(process.execPath, [CHANGESET, 'publish', '--no-git-tag'], scratch, env);
  publishOutput = published.stdout + published.stderr;
}, 600_000);
afterAll(() => scratchDir.remove());

describe('changeset version, then changeset publish (dry run)', () => {
  it('versions every package from its changesets and consumes them', () => {
    expect(versionOutput + publishOutput).not.toMatch(/error/i);
    const left = readdirSync(join(scratch, '.changeset')).filter((f) => f.endsWith('.md') && f !== 'README.md');
    expect(left).toEqual([]);
  });

  it('publishes exactly the packages under packages/, never a private tool', () => {
    const recorded = readdirSync(records).filter((f) => f.endsWith('.json')).map((f) => f.replace(/\.json$/, '')).sort();
    expect(recorded).toEqual(packages.map((p) => p.dir).sort());
    expect(publishOutput).toContain('packages published successfully');
  });

  it.each(packages.map((p) => [p.name, p.dir]))('%s: the new version, its changelog, public access and provenance', (name, dir) => {
    const manifest = JSON.parse(readFileSync(join(scratch, 'packages', dir, 'package.json'), 'utf8'));
    expect(manifest.version).not.toBe('0.0.0');
    expect(publishOutput).toContain(`${name}@${manifest.version}`);
    expect(readFileSync(join(scratch, 'packages', dir, 'CHANGELOG.md'), 'utf8')).toContain(`## ${manifest.version}`);
    // Provenance: npm signs where the package was built; a publish from a machine without CI identity is refused.
    expect(manifest.publishConfig, `${name} needs "publishConfig": { "access": "public", "provenance": true }`).toEqual({ access: 'public', provenance: true });
    const publish = publishOf(dir);
    expect(publish?.args).toMatch(/^publish .*--access public/);
    expect(publish?.report[name]?.version).toBe(manifest.version);
  });

  it.each(packages.map((p) => [p.name, p.dir]))('%s: the files it would publish: its build, types, README, LICENSE and changelog', (name, dir) => {
    const files = (publishOf(dir)?.report[name]?.files ?? []).map((f) => f.path);
    expect(files).toEqual(expect.arrayContaining(['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md', 'dist/index.js', 'dist/index.d.ts']));
    const strays = files.filter((f) => !/^(dist|src)\//.test(f) && !['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md'].includes(f));
    expect(strays).toEqual([]);
    expect(files.filter((f) => /(^|\/)(test|node_modules|fixtures)\//.test(f) || f.endsWith('.tsbuildinfo'))).toEqual([]);
  });
});
