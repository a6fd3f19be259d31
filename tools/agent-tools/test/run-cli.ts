import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
/** The built harness, as `pnpm agent-tools` runs it. */
export const CLI = join(root, 'dist', 'cli.js');
export const DEMO = join(root, 'dist', 'demo.js');
export const SAMPLE = join(root, 'sample');

/** What a run of the real process produced. */
export interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a script of the harness as a real process, with optional standard input, and a hard timeout. */
export function run(
  script: string,
  args: readonly string[],
  options: { input?: string; timeoutMs?: number; cwd?: string; env?: Readonly<Record<string, string>> } = {},
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], {
      cwd: options.cwd ?? root,
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, AGENT_TOOLS_DEBUG: '', ...options.env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`timed out: ${args.join(' ')}\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, options.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(options.input ?? '');
  });
}

/** Runs the CLI. */
export function cli(
  args: readonly string[],
  options: { input?: string; timeoutMs?: number; env?: Readonly<Record<string, string>> } = {},
): Promise<Run> {
  return run(CLI, args, options);
}
