import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The repository root. */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/** A published package of the workspace. */
export interface WorkspacePackage {
  readonly name: string;
  /** Its folder under `packages/`. */
  readonly dir: string;
  readonly manifest: Record<string, unknown>;
}

/** Every package under `packages/`, in folder order. */
export function workspacePackages(): WorkspacePackage[] {
  return readdirSync(join(ROOT, 'packages'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => {
      const manifest = JSON.parse(readFileSync(join(ROOT, 'packages', entry.name, 'package.json'), 'utf8')) as Record<string, unknown>;
      return { name: manifest['name'] as string, dir: entry.name, manifest };
    });
}

/**
 * Packs a package as publishing would (`pnpm pack`: `workspace:` ranges become versions) into `destination`;
 * returns the tarball's path.
 */
export async function pack(pkg: WorkspacePackage, destination: string): Promise<string> {
  const { stdout } = await run('pnpm', ['pack', '--pack-destination', destination], {
    cwd: join(ROOT, 'packages', pkg.dir),
    maxBuffer: 16 * 1024 * 1024,
  });
  const tarball = stdout.trim().split('\n').at(-1)?.trim() ?? '';
  if (!tarball.endsWith('.tgz')) throw new Error(`pnpm pack of ${pkg.name} printed no tarball:\n${stdout}`);
  return resolve(destination, tarball);
}

/** Runs a command, resolving with its output; rejects with both streams in the message when it fails. */
export async function exec(
  command: string,
  args: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv = {},
): Promise<{ stdout: string; stderr: string }> {
  try {
    return await run(command, [...args], { cwd, env: { ...process.env, ...env }, maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(' ')} failed in ${cwd}:\n${stdout}\n${stderr}`.trim(), { cause: error });
  }
}
