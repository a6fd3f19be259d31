import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { approveAll, createRegistry, type Registry, resultText } from '@agent-tools/core';
import { descendantsOf, type ProcessInfo, type TempDir, tempDir } from '@agent-tools/test-utils';
import { type AdapterConfig, type Clock, createDebugSupervisor, type DebugSupervisor, type DebugSupervisorOptions, debugTools } from '../src/index.js';

/** What one debug call answered. */
export interface Answer {
  readonly text: string;
  readonly isError: boolean;
  // biome-ignore lint/suspicious/noExplicitAny: tests read the structured data loosely.
  readonly structured: any;
}

/** A temporary project, a supervisor and a registry with the debug tool, for one test. */
export interface DebugRig extends AsyncDisposable {
  readonly dir: TempDir;
  readonly supervisor: DebugSupervisor;
  readonly registry: Registry;
  call(args: Record<string, unknown>, conversationId?: string): Promise<Answer>;
  /** The live pids of the conversation's session (adapter, launcher, debuggee). */
  pids(conversationId?: string): number[];
}

/** Builds a {@link DebugRig} on a temporary directory holding `files`. */
export function debugRig(files: Record<string, string>, options: DebugSupervisorOptions = {}): DebugRig {
  const dir = tempDir(files, 'agent-tools-debug-test-');
  const supervisor = createDebugSupervisor({ waitMs: 20_000, ...options });
  const registry = createRegistry({
    resources: { cwd: dir.path, conversationId: 'conv-1', debugSupervisor: supervisor },
    factories: [debugTools],
    approve: approveAll,
  });
  return {
    dir,
    supervisor,
    registry,
    async call(args, conversationId) {
      const result = await registry.call('debug', args, conversationId ? { conversationId } : {});
      return { text: resultText(result), isError: result.isError, structured: result.structured };
    },
    pids: (conversationId = 'conv-1') => supervisor.conversation(conversationId).session?.processIds() ?? [],
    async [Symbol.asyncDispose]() {
      await registry.dispose();
      dir.remove();
    },
  };
}

/** A clock the test moves by hand; timers fire when `advance` passes them. */
export class ManualClock implements Clock {
  #now = 1_700_000_000_000;
  readonly #timers = new Set<{ at: number; callback: () => void }>();

  now(): number {
    return this.#now;
  }

  setTimer(callback: () => void, ms: number): { cancel(): void } {
    const timer = { at: this.#now + ms, callback };
    this.#timers.add(timer);
    return { cancel: () => this.#timers.delete(timer) };
  }

  /** Moves time forward, firing due timers (without waiting for what they start). */
  advance(ms: number): void {
    this.#now += ms;
    for (const timer of [...this.#timers]) {
      if (timer.at <= this.#now) {
        this.#timers.delete(timer);
        timer.callback();
      }
    }
  }
}

/** The scriptable fake adapter as a configuration (for faults the real adapters cannot be made to show). */
export function fakeAdapter(mode: string): AdapterConfig {
  const script = fileURLToPath(new URL('./fixtures/fake-adapter.mjs', import.meta.url));
  return {
    id: 'fake',
    languages: 'Fake',
    extensions: ['.fake'],
    rootMarkers: ['fake.toml'],
    transport: { kind: 'stdio' },
    locate: async () => ({
      found: true,
      command: { command: process.execPath, args: [script], env: { FAKE_MODE: mode } },
      summary: `fake adapter (${mode})`,
    }),
    launchArguments: ({ program }) => ({ program }),
  };
}

/** The system Python, which has debugpy from Debian (the python3 first on PATH may be another one). */
export const SYSTEM_PYTHON = '/usr/bin/python3';

/** A loopback port that was free a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/**
 * Waits until this test process has no child left that belongs to the rig: an adapter (debugpy, lldb-dap, dlv) or
 * anything running from the rig's directory. Returns the survivors (none, when all is well).
 */
export async function strays(rig: DebugRig, ms = 10_000): Promise<ProcessInfo[]> {
  const ours = (p: ProcessInfo): boolean => p.command.includes(rig.dir.path) || /debugpy|lldb-dap|\bdlv\b/.test(p.command);
  const deadline = Date.now() + ms;
  for (;;) {
    const left = descendantsOf(process.pid).filter(ours);
    if (left.length === 0 || Date.now() > deadline) return left;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
