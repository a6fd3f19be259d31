import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The keepers: a small Python program that stands between the harness and its process trees on Linux.
 *
 * One *zygote* per harness process, `python3 -I -S -c KEEPER_BOOTSTRAP agent-tools-keeper <room>`, reads this script
 * and a NUL on its stdin, then requests (one per tree: the command, its arguments, working directory, environment,
 * grace period and which stdio are pipes). For each it creates the command's stdio sockets and a control socket,
 * forks a *keeper*, and hands the harness its ends of them over Node's IPC channel (SCM_RIGHTS), with the keeper's
 * pid and, later, how the keeper exited. Python's start (20-30 ms) is paid once per harness process; each tree costs
 * a fork. The zygote holds nothing of a tree once it has handed it over, and exits when the harness is gone.
 *
 * Each keeper
 *
 * - makes itself a child subreaper (`prctl(PR_SET_CHILD_SUBREAPER)`), so every descendant whose parent dies is
 *   re-parented to it instead of to init: a `setsid` daemon, a debuggee's fork, a kernel's `sleep &` all stay
 *   below it, and it can always walk its tree through /proc;
 * - runs in a session of its own and forks the command as the leader of its own session and process group (as
 *   `detached: true` would), with the stdio sockets as fds 0-2, then points its own 0-2 at /dev/null so the
 *   sockets close when the tree is done with them;
 * - shows the command line and environment of its command in its own /proc/PID/cmdline and environ (as when every
 *   keeper was a Python start of its own), in room the zygote was started with;
 * - reports `pid PID CONTAINED` once the command runs (or `error ERRNO` when it cannot be executed), and
 *   `exit code N` or `exit signal NAME` the moment the command exits (plain words: importing json costs 18 ms);
 * - ends the rest of the tree (SIGTERM, then SIGKILL after the grace period) when the command exits, when the
 *   harness asks (`stop MS`; `signal NAME` only signals), on a SIGTERM to the keeper, and when its control socket
 *   closes because the harness died, however it died (SIGKILL, OOM kill, crash): the kernel closes the socket for
 *   it, also one still in flight to a harness that died before taking it;
 * - signals a pid only through a pidfd, checking the start time after opening it, so a reused pid is never hit;
 * - exits once the command has exited and it has no child left (as their subreaper, nothing is left below it).
 *
 * Python because it is on every machine these tools target and reaches prctl through ctypes without a build. The
 * program lives in `keeper.py` beside this file (linted with py_compile and pyflakes); the build copies it next to
 * the compiled module, and it is read once, when the zygote is started.
 */
let script: string | undefined;

/** Where `keeper.py` is: eval's kernel-group.py imports its /proc reading and pidfd signalling from it. */
export const KEEPER_PATH: string = fileURLToPath(new URL('./keeper.py', import.meta.url));

/** The keeper program's text (`keeper.py`), read once. */
export function keeperScript(): string {
  script ??= readFileSync(KEEPER_PATH, 'utf8');
  return script;
}

/** Reads the keeper script from fd 0 up to a NUL and runs it; what came after the NUL is passed on as `EARLY`. */
export const KEEPER_BOOTSTRAP = String.raw`import os;b=b""
while b"\0" not in b:b+=os.read(0,65536) or os._exit(127)
i=b.index(b"\0");exec(b[:i],{"__name__":"__main__","EARLY":b[i+1:]})`;
