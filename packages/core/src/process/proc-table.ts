import { existsSync, readdirSync, readFileSync } from 'node:fs';

/** One process as Linux's /proc shows it: enough to find its relatives and to recognise it again later. */
export interface ProcessEntry {
  readonly pid: number;
  readonly ppid: number;
  /** Process group id. */
  readonly pgid: number;
  /** Session id. */
  readonly sid: number;
  /** The state letter (`R`, `S`, `D`, `T`, `Z`, ...). */
  readonly state: string;
  /**
   * Start time in clock ticks since boot. With the pid it names one process: a pid the kernel hands out again
   * belongs to a process with a later start time.
   */
  readonly startTime: string;
}

/** Whether /proc can be read here (Linux). Elsewhere only process groups are used. */
export const hasProcFs: boolean = (() => {
  try {
    readFileSync('/proc/self/stat', 'utf8');
    return true;
  } catch {
    // No /proc here, or it is unreadable: the only errors a read of it can raise.
    return false;
  }
})();

/**
 * Reads one process; `undefined` when it is gone. A zombie is returned with state `Z` (it has exited and
 * only waits to be reaped): use {@link isLive} to ask whether it still runs.
 */
export function readProcess(pid: number): ProcessEntry | undefined {
  if (!hasProcFs || !Number.isInteger(pid) || pid <= 0) return undefined;
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    // The process is gone or not ours to read: /proc raises only ENOENT, ESRCH or EACCES here.
    return undefined;
  }
  // The command name (field 2) may hold spaces and parentheses: the fields start after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return {
    pid,
    state: fields[0] ?? '?',
    ppid: Number(fields[1]),
    pgid: Number(fields[2]),
    sid: Number(fields[3]),
    startTime: fields[19] ?? '',
  };
}

/** Whether an entry is a process that still runs (not a zombie, not dead). */
export function isLive(entry: ProcessEntry | undefined): entry is ProcessEntry {
  return entry !== undefined && entry.state !== 'Z' && entry.state !== 'X' && entry.state !== 'x';
}

/** Whether the process seen earlier as `entry` still runs: same pid, same start time, not a zombie. */
export function isStillRunning(entry: { readonly pid: number; readonly startTime: string }): boolean {
  const now = readProcess(entry.pid);
  return isLive(now) && now.startTime === entry.startTime;
}

/** Every process on the machine, zombies included (empty without /proc). */
export function listProcesses(): ProcessEntry[] {
  if (!hasProcFs) return [];
  const entries: ProcessEntry[] = [];
  for (const name of readdirSync('/proc')) {
    const first = name.charCodeAt(0);
    if (first < 48 || first > 57) continue;
    const entry = readProcess(Number(name));
    if (entry) entries.push(entry);
  }
  return entries;
}

/** Whether each task lists its children (`/proc/PID/task/TID/children`): a tree is then walked without a scan. */
const hasChildrenFiles: boolean = hasProcFs && existsSync(`/proc/${process.pid}/task/${process.pid}/children`);

/** The pids of a process's children, from its tasks' children lists; undefined where those lists do not exist. */
export function childrenOf(pid: number): number[] | undefined {
  if (!hasChildrenFiles) return undefined;
  const children: number[] = [];
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    // The process ended while we read it: ENOENT is the only error here.
    return children;
  }
  for (const task of tasks) {
    try {
      for (const child of readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ')) {
        if (child) children.push(Number(child));
      }
    } catch {
      // The task ended while we read it.
    }
  }
  return children;
}

/**
 * The live descendants of `pid` (children, their children, ...), found through parent links: walked through the
 * children lists where the kernel has them, else from `table` (one read of /proc, reusable for several questions).
 */
export function descendantsOf(pid: number, table?: readonly ProcessEntry[]): ProcessEntry[] {
  if (!table && hasChildrenFiles) return walk(pid, (parent) => (childrenOf(parent) ?? []).flatMap((child) => readProcess(child) ?? []));
  const byParent = new Map<number, ProcessEntry[]>();
  for (const entry of table ?? listProcesses()) {
    const siblings = byParent.get(entry.ppid);
    if (siblings) siblings.push(entry);
    else byParent.set(entry.ppid, [entry]);
  }
  return walk(pid, (parent) => byParent.get(parent) ?? []);
}

function walk(root: number, children: (pid: number) => ProcessEntry[]): ProcessEntry[] {
  const found: ProcessEntry[] = [];
  const queue = [root];
  const seen = new Set(queue);
  while (queue.length > 0) {
    for (const child of children(queue.shift() as number)) {
      if (seen.has(child.pid)) continue;
      seen.add(child.pid);
      queue.push(child.pid);
      if (isLive(child)) found.push(child);
    }
  }
  return found;
}

/**
 * Sends `signal` to the process seen earlier as `entry`, only if it is still that process (same start time),
 * so a pid the kernel has handed to someone else is never hit. Returns whether the signal was sent.
 */
export function signalProcess(entry: { readonly pid: number; readonly startTime: string }, signal: NodeJS.Signals): boolean {
  if (hasProcFs && !isStillRunning(entry)) return false;
  try {
    process.kill(entry.pid, signal);
    return true;
  } catch {
    // ESRCH (gone) or EPERM (not ours): kill raises nothing else for a valid signal.
    return false;
  }
}

/** The live members of a process group (zombies skipped). */
export function groupMembers(pgid: number, table: readonly ProcessEntry[] = listProcesses()): ProcessEntry[] {
  return table.filter((entry) => entry.pgid === pgid && isLive(entry));
}
