import { readdirSync, readFileSync } from 'node:fs';

/** A process as /proc shows it: enough to find children and to recognise the same process later. */
export interface ProcEntry {
  readonly pid: number;
  readonly ppid: number;
  /** Start time in clock ticks since boot: with the pid, it identifies one process even after pid reuse. */
  readonly startTime: string;
}

/** Whether /proc can be read here (Linux). Elsewhere only process groups are used. */
export const hasProc = (() => {
  try {
    readFileSync('/proc/self/stat', 'utf8');
    return true;
  } catch {
    return false;
  }
})();

/** Reads one process's stat line; `undefined` when it is gone or a zombie. */
export function readProc(pid: number): ProcEntry | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may contain spaces and parentheses: split after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (fields[0] === 'Z' || fields[0] === 'X') return undefined;
    return { pid, ppid: Number(fields[1]), startTime: fields[19] ?? '' };
  } catch {
    return undefined;
  }
}

/** Every live process. */
export function listProcs(): ProcEntry[] {
  if (!hasProc) return [];
  const entries: ProcEntry[] = [];
  for (const name of readdirSync('/proc')) {
    if (name.charCodeAt(0) < 48 || name.charCodeAt(0) > 57) continue;
    const entry = readProc(Number(name));
    if (entry) entries.push(entry);
  }
  return entries;
}

/** The live descendants of `pid` (children, their children, ...). */
export function descendants(pid: number): ProcEntry[] {
  const all = listProcs();
  const byParent = new Map<number, ProcEntry[]>();
  for (const entry of all) {
    const siblings = byParent.get(entry.ppid);
    if (siblings) siblings.push(entry);
    else byParent.set(entry.ppid, [entry]);
  }
  const found: ProcEntry[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    for (const child of byParent.get(queue.shift() as number) ?? []) {
      found.push(child);
      queue.push(child.pid);
    }
  }
  return found;
}
