import { readFileSync } from 'node:fs';
import { descendantsOf, hasProcFs, isStillRunning, type ProcessEntry } from '@agent-tools/core/process';

/**
 * A process a server runs to do its real work, whose death the server survives (typescript-language-server and its
 * tsserver). Once it is gone the server still answers, with nothing: "no references", "no hover information",
 * `{"type":"noServer"}`, answers that read as facts. So its death is the server's death.
 */
export interface InnerProcessSpec {
  /** How answers name it: `tsserver`. */
  readonly name: string;
  /** Matches its command line (arguments joined by spaces) among the server's descendants. */
  readonly commandLine: RegExp;
  /** A line the server logs when it has died (window/logMessage or showMessage). */
  readonly exitMessage?: RegExp;
  /** An answer that only comes when it is not running (tsserver's command answer `{"type":"noServer"}`). */
  readonly deadAnswer?: (result: unknown) => boolean;
}

/**
 * Watches one server's inner process: found among the server's descendants once it has started, then recognised by
 * pid and start time (so a reused pid is never taken for it), read from /proc only when asked. Where there is no
 * /proc, only the server's exit message and dead answers tell.
 */
export class InnerProcessWatch {
  readonly spec: InnerProcessSpec;
  readonly #serverPid: () => number | undefined;
  #seen: ProcessEntry | undefined;
  #died: string | undefined;

  constructor(spec: InnerProcessSpec, serverPid: () => number | undefined) {
    this.spec = spec;
    this.#serverPid = serverPid;
  }

  /** Why it is gone, once it is; undefined while it runs or has not started yet. */
  check(): string | undefined {
    if (this.#died || !hasProcFs) return this.#died;
    if (this.#seen) {
      if (!isStillRunning(this.#seen)) this.#died = `its ${this.spec.name} process (pid ${this.#seen.pid}) has exited`;
      return this.#died;
    }
    const pid = this.#serverPid();
    if (pid !== undefined) this.#seen = descendantsOf(pid).find((entry) => this.spec.commandLine.test(commandLine(entry.pid)));
    return undefined;
  }

  /** Reads a logged line; answers why it is gone when the line says it died. */
  fromLog(line: string): string | undefined {
    if (this.#died) return undefined;
    const match = this.spec.exitMessage?.exec(line);
    if (!match) return undefined;
    this.#died = `its ${this.spec.name} process has exited (the server logged "${match[0]}")`;
    return this.#died;
  }

  /** Reads an answer; answers why it is gone when only a dead inner process gives that answer. */
  fromAnswer(result: unknown): string | undefined {
    if (this.#died || !this.spec.deadAnswer?.(result)) return this.#died;
    this.#died = `its ${this.spec.name} process is not running (the server answered ${JSON.stringify(result).slice(0, 80)})`;
    return this.#died;
  }
}

function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    // The process is gone or not readable: /proc raises only file-system errors here.
    return '';
  }
}
