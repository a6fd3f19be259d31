import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { KEEPER_PATH } from '../../src/process.js';

/**
 * keeper.py imported as a module (as eval's kernel-group.py imports it) runs nothing by itself, and its
 * end_group ends the other members of a process group through its pidfd signalling.
 */
describe('keeper.py as a module', () => {
  it('imports without running, and end_group ends the members of a group but not its leader', async () => {
    const program = `
import importlib.util, os, signal, subprocess, sys
spec = importlib.util.spec_from_file_location("agent_tools_keeper", sys.argv[1])
keeper = importlib.util.module_from_spec(spec)
spec.loader.exec_module(keeper)
os.setpgid(0, 0)
children = [subprocess.Popen(["sleep", "600"]) for _ in range(3)]
before = sorted(pid for pid, _ in keeper.group(os.getpid()))
keeper.end_group(os.getpid(), ((signal.SIGTERM, 2.0), (signal.SIGKILL, 2.0)))
for child in children:
    child.wait()
print(before == sorted(c.pid for c in children), [c.returncode for c in children], keeper.group(os.getpid()))
`;
    const child = spawn('/usr/bin/python3', ['-c', program, KEEPER_PATH], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(err).toBe('');
    expect(code).toBe(0);
    // Each sleep ended by SIGTERM (-15) and the group empty afterwards; had the import run the keeper's main(), it
    // would have failed on the missing arguments (stderr, exit code).
    expect(out.trim()).toBe('True [-15, -15, -15] []');
  });
});
