import { createRequire } from 'node:module';
import { join } from 'node:path';
import process from 'node:process';
import { inspect } from 'node:util';
import vm from 'node:vm';
import type { BridgeCall, BridgeReply, BridgeResult } from '../bridge.js';
import { transformCell } from './transform.js';

/** A MIME bundle, as display_data and execute_result carry it. */
export type MimeBundle = Record<string, unknown>;

/** What the runtime needs from the kernel around it. */
export interface RuntimeHost {
  /** Publishes a display_data message for the running cell. */
  display(data: MimeBundle, metadata: Record<string, unknown>): void;
  /** Sends calls over the stdin channel and waits for the host's answers. */
  bridge(calls: readonly BridgeCall[]): Promise<BridgeReply>;
}

/** Thrown into a cell's await when the kernel is interrupted. */
export class InterruptError extends Error {
  override readonly name = 'KeyboardInterrupt';
}

/** An error a cell raised, as the execute reply reports it. */
export interface CellError {
  readonly ename: string;
  readonly evalue: string;
  readonly traceback: string[];
}

const INSPECT = { depth: 4, maxArrayLength: 100, maxStringLength: 10_000, breakLength: 100, colors: false } as const;

/**
 * The JavaScript world of one kernel: a vm context whose globals persist between cells, with Node's globals,
 * `require` from the working directory, `display()` and `tool()`. Kernel internals live outside the context, so a
 * cell redefining `process` or `console` cannot break the kernel.
 */
export class JsRuntime {
  readonly #context: vm.Context;
  readonly #host: RuntimeHost;
  #interrupt: ((error: InterruptError) => void) | undefined;
  #pending: { call: BridgeCall; resolve: (r: BridgeResult) => void; reject: (e: unknown) => void }[] = [];
  #inFlight = false;
  /** Lines per cell, to drop the frame of the wrapper's closing `})()`, which is not the user's. */
  readonly #cellLines = new Map<number, number>();

  constructor(host: RuntimeHost) {
    this.#host = host;
    this.#context = vm.createContext({});
    const global = vm.runInContext('globalThis', this.#context) as Record<PropertyKey, unknown>;
    for (const key of Reflect.ownKeys(globalThis)) {
      if (key in global) continue;
      const descriptor = Object.getOwnPropertyDescriptor(globalThis, key);
      if (!descriptor) continue;
      // Node's globals are partly accessors whose setters write the kernel's own global (`process = null` in a
      // cell would take the kernel's process away): the context gets their values as its own properties.
      if (descriptor.get || descriptor.set) {
        let value: unknown;
        try {
          value = descriptor.get?.call(globalThis);
        } catch {
          // A global whose getter throws (a host object) is skipped: whatever it throws is the getter's own.
          continue;
        }
        Object.defineProperty(global, key, { value, writable: true, configurable: true, enumerable: descriptor.enumerable ?? false });
      } else {
        Object.defineProperty(global, key, descriptor);
      }
    }
    // A fresh context has V8's own console, which prints nowhere; Node's writes to the captured streams.
    global['console'] = console;
    global['global'] = global;
    global['require'] = createRequire(join(process.cwd(), '<cell>.js'));
    global['display'] = (value: unknown, mimeType?: string) => this.#display(value, mimeType);
    global['tool'] = this.#toolFunction();
  }

  /** Runs one cell; resolves with its last expression's value. Rejects with what the cell threw. */
  async run(code: string, count: number): Promise<unknown> {
    this.#cellLines.set(count, code.split('\n').length);
    const script = new vm.Script(transformCell(code), {
      filename: `<cell ${count}>`,
      importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
    });
    const interrupted = new Promise<never>((_, reject) => {
      this.#interrupt = reject;
    });
    try {
      // breakOnSigint stops a synchronous loop; the race stops a cell waiting on a promise that never settles.
      const completion = script.runInContext(this.#context, { breakOnSigint: true, displayErrors: false }) as Promise<unknown>;
      return await Promise.race([completion, interrupted]);
    } finally {
      this.#interrupt = undefined;
    }
  }

  /** Interrupts the running cell's wait (a SIGINT or an interrupt_request). */
  interrupt(): boolean {
    if (!this.#interrupt) return false;
    this.#interrupt(new InterruptError('The cell was interrupted.'));
    return true;
  }

  /** The text/plain form of a value. */
  inspect(value: unknown): string {
    return inspect(value, INSPECT);
  }

  #display(value: unknown, mimeType?: string): void {
    if (mimeType) {
      const data = value instanceof Uint8Array ? Buffer.from(value).toString('base64') : String(value);
      this.#host.display({ [mimeType]: data, 'text/plain': `<${mimeType}>` }, {});
      return;
    }
    this.#host.display({ 'text/plain': typeof value === 'string' ? value : this.inspect(value) }, {});
  }

  /**
   * `await tool(name, args)` returns the text and throws on an error answer; `tool.result()` returns the whole
   * answer without throwing. Calls made in the same tick (`Promise.all([...])`) travel as one request and run
   * concurrently in the harness.
   */
  #toolFunction(): unknown {
    const call = (name: unknown, args: unknown): Promise<BridgeResult> => {
      if (typeof name !== 'string') return Promise.reject(new TypeError('tool(name, args): name must be a string'));
      return new Promise((resolve, reject) => {
        this.#pending.push({ call: { name, args: args ?? {} }, resolve, reject });
        if (this.#pending.length === 1 && !this.#inFlight) setImmediate(() => this.#flush());
      });
    };
    const tool = async (name: unknown, args?: unknown): Promise<string> => {
      const result = await call(name, args);
      if (result.isError) throw Object.assign(new Error(result.text), { name: 'ToolError', result });
      return result.text;
    };
    return Object.assign(tool, { result: call });
  }

  #flush(): void {
    if (this.#inFlight || this.#pending.length === 0) return;
    const batch = this.#pending.splice(0);
    this.#inFlight = true;
    this.#host
      .bridge(batch.map((b) => b.call))
      .then(
        (reply) => {
          batch.forEach((entry, i) => {
            const result = reply.results[i];
            if (result) entry.resolve(result);
            else entry.reject(new Error('The harness sent no answer for this tool call.'));
          });
        },
        (error: unknown) => {
          for (const entry of batch) entry.reject(error);
        },
      )
      .finally(() => {
        this.#inFlight = false;
        this.#flush();
      });
  }

  /** Describes what a cell threw, with the stack cut to the cell's own frames. */
  describeError(error: unknown): CellError {
    return describeError(error, (count, line) => line <= (this.#cellLines.get(count) ?? Number.POSITIVE_INFINITY));
  }
}

/** Describes what a cell threw, with the stack cut to the cell's own frames. */
export function describeError(error: unknown, inCell: (count: number, line: number) => boolean = () => true): CellError {
  if (error === null || typeof error !== 'object') {
    return { ename: 'Error', evalue: `Uncaught ${inspect(error, INSPECT)}`, traceback: [`Uncaught ${inspect(error, INSPECT)}`] };
  }
  const e = error as { name?: unknown; message?: unknown; stack?: unknown; line?: number; column?: number };
  const ename = typeof e.name === 'string' ? e.name : 'Error';
  const evalue = typeof e.message === 'string' ? e.message : inspect(error, INSPECT);
  const frames = typeof e.stack === 'string' ? cellFrames(e.stack, inCell) : [];
  return { ename, evalue, traceback: [`${ename}: ${evalue}`, ...frames] };
}

/** The frames of a stack that are in cells or user code, with kernel and Node internals dropped. */
function cellFrames(stack: string, inCell: (count: number, line: number) => boolean): string[] {
  const frames: string[] = [];
  let hidden = 0;
  for (const line of stack.split('\n')) {
    const frame = /^\s+at (.*)$/.exec(line)?.[1];
    if (!frame) continue;
    const cell = /<cell (\d+)>:(\d+):\d+/.exec(frame);
    if (cell) {
      if (!inCell(Number(cell[1]), Number(cell[2]))) continue;
      const where = frame.startsWith('<cell') ? '' : `${frame.replace(/\s*\(<cell.*$/, '')} `;
      frames.push(`    at ${where}(cell ${cell[1]}, line ${cell[2]})`);
      continue;
    }
    if (/\(?node:/.test(frame) || frame.includes('/js-kernel/')) {
      hidden++;
      continue;
    }
    frames.push(`    at ${frame}`);
  }
  if (hidden && frames.length === 0) return [];
  return frames;
}
