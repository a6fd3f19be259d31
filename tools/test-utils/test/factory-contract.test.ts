import { spawn } from 'node:child_process';
import { defineFactory, defineTool, textResult } from '@agent-tools/core';
import { z } from 'zod';
import { factoryContract } from '../src/index.js';

/** A resource that starts a real child process on first use and kills it on dispose. */
class SleeperServer {
  #child: ReturnType<typeof spawn> | undefined;
  constructor(readonly marker: string) {}
  start(): void {
    // argv0 puts the marker into the process's command line, where the contract looks for leftovers.
    this.#child ??= spawn('sleep', ['300'], { argv0: `sleep-${this.marker}`, stdio: 'ignore' });
  }
  dispose(): void {
    this.#child?.kill('SIGKILL');
  }
}

declare module '@agent-tools/core' {
  interface Resources {
    sleeperServer?: SleeperServer;
  }
}

const empty = z.object({});
const sleeperTools = defineFactory({
  name: '@test/sleeper',
  needs: ['cwd', 'sleeperServer'],
  create: ({ sleeperServer }) => [
    defineTool({
      name: 'sleeper_status',
      tier: 'read',
      description: 'Starts the sleeper.',
      parallelSafe: true,
      parameters: empty,
      execute: () => {
        sleeperServer.start();
        return textResult('started');
      },
    }),
    defineTool({ name: 'sleeper_write', tier: 'write', description: 'w', parallelSafe: true, parameters: empty, execute: () => textResult('w') }),
    defineTool({ name: 'sleeper_exec', tier: 'exec', description: 'x', parallelSafe: false, parameters: empty, execute: () => textResult('x') }),
  ],
});

// The contract run against a factory with read, write and exec tools and a real process.
factoryContract({
  factory: sleeperTools,
  resources: () => ({ cwd: '/tmp', sleeperServer: new SleeperServer(`contract-${process.pid}`) }),
  tools: { sleeper_status: 'read', sleeper_write: 'write', sleeper_exec: 'exec' },
  warmUp: { tool: 'sleeper_status', args: {}, marker: `sleep-contract-${process.pid}` },
});
