import { type AnyToolFactory, approveAll, createRegistry, type Resources, resultText, type Tier } from '@agent-tools/core';
import { describe, expect, it } from 'vitest';
import { waitForNoProcesses } from './processes.js';

/** What the shared factory contract needs to know about a resource factory. */
export interface FactoryContractOptions {
  readonly factory: AnyToolFactory;
  /** Fresh resources with which the factory registers its tools; the registry disposes them. */
  resources(): Resources | Promise<Resources>;
  /** The tools the factory registers and their tiers. */
  readonly tools: Readonly<Record<string, Tier>>;
  /**
   * A call that makes the resource start its processes, and a string found in those processes' command lines:
   * the contract then checks that disposing the registry leaves none of them alive.
   */
  readonly warmUp?: {
    readonly tool: string;
    readonly args: unknown;
    /** A string found in the command lines of the processes the call started. */
    readonly marker: string | ((resources: Resources) => string);
  };
}

/**
 * The contract every resource factory honours: it registers only when all its resources are present, its tools
 * carry their tiers onto the right surfaces, and disposing the registry leaves no process behind.
 */
export function factoryContract(options: FactoryContractOptions): void {
  const { factory, tools } = options;
  const names = Object.keys(tools).sort();

  describe(`${factory.name} factory contract`, () => {
    it('declares what it needs', () => {
      expect(factory.needs.length).toBeGreaterThan(0);
    });

    for (const need of factory.needs as readonly string[]) {
      it(`registers nothing without "${need}"`, async () => {
        const resources = { ...(await options.resources()), [need]: undefined };
        await using registry = createRegistry({ resources, factories: [factory] });
        expect(registry.tools().map((t) => t.name)).toEqual([]);
        expect(registry.factories[0]?.missing).toEqual([need]);
      });
    }

    it('registers its tools with their tiers when every resource is present', async () => {
      await using registry = createRegistry({ resources: await options.resources(), factories: [factory] });
      const registered = Object.fromEntries(registry.tools().map((t) => [t.name, t.tier]));
      expect(Object.keys(registered).sort()).toEqual(names);
      expect(registered).toEqual(tools);
    });

    it('shows only its read tools on the plan and subagent surfaces', async () => {
      await using registry = createRegistry({ resources: await options.resources(), factories: [factory] });
      const readOnly = names.filter((name) => tools[name] === 'read');
      expect(registry.tools('plan').map((t) => t.name).sort()).toEqual(readOnly);
      expect(registry.tools('subagent').map((t) => t.name).sort()).toEqual(readOnly);
      for (const name of names.filter((n) => tools[n] !== 'read')) {
        const result = await registry.call(name, {}, { surface: 'plan' });
        expect(result.isError).toBe(true);
        expect(resultText(result)).toMatch(new RegExp(`^Unknown tool "${name}"`));
      }
    });

    const warmUp = options.warmUp;
    if (warmUp) {
      it('leaves no process behind after dispose', { timeout: 60_000 }, async () => {
        const resources = await options.resources();
        const marker = typeof warmUp.marker === 'string' ? warmUp.marker : warmUp.marker(resources);
        const registry = createRegistry({ resources, factories: [factory], approve: approveAll });
        await registry.call(warmUp.tool, warmUp.args);
        await registry.dispose();
        expect(await waitForNoProcesses(marker, 10_000)).toEqual([]);
      });
    }
  });
}
