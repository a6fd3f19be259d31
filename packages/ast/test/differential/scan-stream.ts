import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { AST_GREP } from '../corpus.js';

/** One match of `ast-grep scan --json=stream`, reduced to what the differential compares. */
export interface StreamedMatch {
  readonly file: string;
  readonly ruleId: string;
  readonly start: number;
  readonly end: number;
}

/** The error of a refused or failed scan, shaped like execFile's (`code`, `stderr`). */
export class ScanError extends Error {
  constructor(
    message: string,
    readonly code: number | null,
    readonly stderr: string,
  ) {
    super(message);
  }
}

/** Ten minutes: the slowest full-size scan (cpp, 150 rules on 60 files) takes well under one on a quiet machine. */
const TIMEOUT_MS = 600_000;

/**
 * Runs `ast-grep <args>` (a `--json=stream` scan) and keeps only each match's file, rule and byte range, line by
 * line as they come. The whole output is never held: a rule with `inside` prints the whole enclosing node (often
 * the file) as a label of every match, and 150 such rules over 60 files print more than Node's largest string
 * (haskell: 561 MB). Buffered by execFile, that made its exit handler throw a RangeError outside any promise, so
 * the scan's promise never settled and the differential stalled with no child process left.
 * Exit 0, or 1 with nothing on stderr (nothing matched), is success; anything else rejects with ast-grep's stderr.
 */
export function scanStream(args: readonly string[], cwd: string): Promise<StreamedMatch[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(AST_GREP, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    const matches: StreamedMatch[] = [];
    let stderr = '';
    let failure: Error | undefined;
    const timer = setTimeout(() => {
      failure = new ScanError(`ast-grep ${args[0]} timed out after ${TIMEOUT_MS / 1000} s`, null, stderr);
      child.kill('SIGKILL');
    }, TIMEOUT_MS);
    child.stderr.setEncoding('utf8');
    // Only the start of stderr is kept: it is an error message, never data.
    child.stderr.on('data', (chunk: string) => {
      if (stderr.length < 64 * 1024) stderr += chunk;
    });
    const lines = createInterface({ input: child.stdout, crlfDelay: Number.POSITIVE_INFINITY });
    lines.on('line', (line) => {
      if (failure || !line.trim()) return;
      try {
        const m = JSON.parse(line) as { file: string; ruleId: string; range: { byteOffset: { start: number; end: number } } };
        matches.push({ file: m.file, ruleId: m.ruleId, start: m.range.byteOffset.start, end: m.range.byteOffset.end });
      } catch (error) {
        failure = new ScanError(`ast-grep printed a line that is not JSON (${(error as Error).message}): ${line.slice(0, 200)}`, null, stderr);
        child.kill('SIGKILL');
      }
    });
    // Not started (or not killable): nothing more will come; a promise settles once, so a later 'close' is moot.
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    // 'close' comes after stdout has ended, so every line has been read.
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (failure) reject(failure);
      else if (code === 0 || (code === 1 && !stderr.trim())) resolve(matches);
      else reject(new ScanError(`ast-grep ${args[0]} exited with ${code ?? signal}: ${stderr.trim().slice(0, 500)}`, code, stderr));
    });
  });
}
