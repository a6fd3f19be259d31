import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, workspacePackages } from '../src/workspace.js';

// The release plan `changeset version` would carry out, from changesets' own planner (a dependency of the CLI).
const fromCli = createRequire(createRequire(join(ROOT, 'package.json')).resolve('@changesets/cli/package.json'));
const { default: getReleasePlan } = fromCli('@changesets/get-release-plan') as {
  default: (cwd: string) => Promise<ReleasePlan>;
};
const semver = fromCli('semver') as { satisfies(version: string, range: string): boolean };

type Bump = 'none' | 'patch' | 'minor' | 'major';
interface ReleasePlan {
  readonly changesets: ReadonlyArray<{ readonly id: string; readonly releases: ReadonlyArray<{ readonly name: string; readonly type: Bump }> }>;
  readonly releases: ReadonlyArray<{ readonly name: string; readonly type: Bump; readonly oldVersion: string; readonly newVersion: string }>;
}

const ORDER: readonly Bump[] = ['none', 'patch', 'minor', 'major'];

describe('the release plan changesets makes from the pending changesets', async () => {
  const plan = await getReleasePlan(ROOT);
  const packages = workspacePackages();

  it.each(packages.map((p) => [p.name]))('%s: bumped no further than its own changesets ask (a dependency may add a patch)', (name) => {
    const release = plan.releases.find((r) => r.name === name);
    const asked = plan.changesets.flatMap((c) => c.releases.filter((r) => r.name === name).map((r) => ORDER.indexOf(r.type)));
    const allowed = ORDER[Math.max(ORDER.indexOf('patch'), ...asked)] as Bump;
    expect(ORDER.indexOf(release?.type ?? 'none'), `${name}: ${release?.oldVersion} -> ${release?.newVersion} (${release?.type}), its changesets ask for ${allowed}`).toBeLessThanOrEqual(
      ORDER.indexOf(allowed),
    );
  });

  it.each(packages.filter((p) => p.name !== '@agent-tools/core').map((p) => [p.name, p.manifest]))(
    "%s: its peer range on core holds core's next version, so the two can be installed together",
    (_name, manifest) => {
      const peer = ((manifest as { peerDependencies?: Record<string, string> }).peerDependencies ?? {})['@agent-tools/core'] ?? '';
      const core = plan.releases.find((r) => r.name === '@agent-tools/core');
      const next = core?.newVersion ?? (packages.find((p) => p.name === '@agent-tools/core')?.manifest['version'] as string);
      const range = peer.replace(/^workspace:/, '').replace(/^[\^~]$/, (sign) => `${sign}${core?.oldVersion ?? next}`);
      expect(semver.satisfies(next, range), `peer "${peer}" and core ${next}`).toBe(true);
    },
  );
});

describe('package metadata', () => {
  // There is no git remote yet: one assumed repository URL, the same in every manifest.
  const REPOSITORY = 'https://github.com/agent-tools/agent-tools';

  it.each(workspacePackages().map((p) => [p.name, p.dir, p.manifest]))('%s: repository, homepage and bugs name the one repository', (_name, dir, manifest) => {
    expect(manifest).toMatchObject({
      repository: { type: 'git', url: `git+${REPOSITORY}.git`, directory: `packages/${dir}` },
      homepage: `${REPOSITORY}/tree/main/packages/${dir}#readme`,
      bugs: { url: `${REPOSITORY}/issues` },
    });
  });
});
