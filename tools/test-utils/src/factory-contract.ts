import { type AnyToolFactory, approveAll, createRegistry, type Resources, resultText, type Tier } from '@agent-tools/core';
import { disposeValue } from '@agent-tools/core/internal';
import { describe, expect, it } from 'vitest';
import {
  afterDisposeProblems,
  type ContractCall,
  contractRegistry,
  disposeTwiceProblems,
  emptyCallProblems,
} from './contract-checks.js';
import { harnessDeath } from './harness-death.js';
import { waitForNoProcesses } from './processes.js';
import { tempDir } from './temp-dir.js';

/** What the shared factory contract needs to know about a resource factory. */
export interface FactoryContractOptions {
  readonly factory: AnyToolFactory;
  /** Fresh resources with which the factory registers its tools; the registry disposes them. */
  resources(): Resources | Promise<Resources>;
  /** The tools the factory registers and their tiers. */
  readonly tools: Readonly<Record<string, Tier>>;
  /**
   * A valid call of one of the tools that needs the resources (default: the warm-up call): after the resources are
   * disposed it must be answered with an error.
   */
  readonly call?: ContractCall;
  /**
   * A call that makes the resource start its processes, and a string found in those processes' command lines:
   * the contract then checks that disposing the registry leaves none of them alive.
   */
  readonly warmUp?: ContractCall & {
    /** A string found in the command lines of the processes the call started. */
    readonly marker: string | ((resources: Resources) => string);
  };
  /**
   * A stand-in harness: the URL of an ES module exporting `factory` and `resources(dir)` (the same resources, built
   * in a child process inside the fresh folder `dir`). With `warmUp`, the contract runs the warm-up call in a child
   * process that then exits, or is SIGKILLed, without disposing, and checks through /proc that every process it
   * started ends within {@link HARNESS_DEATH_BUDGET_MS}.
   */
  readonly harness?: URL;
}

/** How long the processes of a harness that died without disposing may outlive it. */
export const HARNESS_DEATH_BUDGET_MS = 10_000;

/** How long one resource may take to dispose in the contract. */
const DISPOSE_MS = 15_000;

/** How long the dispose check lets its call run before it disposes everything. */
const IN_FLIGHT_MS = 1000;

/**
 * The contract every resource factory honours: it registers only when all its resources are present, its tools
 * carry their tiers onto the right surfaces, `{}` is refused naming a field, a call after dispose is an error,
 * disposing twice is safe, and no process outlives the registry, even when the harness dies without disposing.
 */
export function factoryContract(options: FactoryContractOptions): void {
  const { factory, tools } = options;
  const names = Object.keys(tools).sort();
  const call = options.call ?? options.warmUp;

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

    it('answers {} with an error that names a field, never a crash', { timeout: 60_000 }, async () => {
      const { registry, errors } = contractRegistry(await options.resources(), factory);
      await using _ = registry;
      const problems: string[] = [];
      for (const tool of registry.tools()) problems.push(...emptyCallProblems(tool, await registry.call(tool.name, {})));
      expect(problems).toEqual([]);
      expect(errors).toEqual([]);
    });

    it('answers a call after the run is disposed with an error', async () => {
      const { registry } = contractRegistry(await options.resources(), factory);
      await registry.dispose();
      const calls = [...names.map((tool) => ({ tool, args: {} })), ...(call ? [call] : [])];
      const problems: string[] = [];
      for (const c of calls) problems.push(...afterDisposeProblems(c, await registry.call(c.tool, c.args)));
      expect(problems).toEqual([]);
    });

    if (call) {
      it('answers a call after its resources are disposed with an error, and starts nothing', { timeout: 60_000 }, async () => {
        const resources = await options.resources();
        // A call that waits for a disposed resource is cut off here, and reported as hung.
        const { registry, errors } = contractRegistry(resources, factory, 30_000);
        await using _ = registry;
        // Disposed directly, as a harness that tears its resources down before the registry would.
        await Promise.all(Object.values(resources).map((value) => disposeValue(value, DISPOSE_MS)));
        const result = await registry.call(call.tool, call.args);
        expect(afterDisposeProblems(call, result)).toEqual([]);
        expect(errors).toEqual([]);
        const warm = options.warmUp;
        if (warm) expect(await waitForNoProcesses(markerOf(warm.marker, resources), 2000)).toEqual([]);
      });

      it('is safe to dispose twice, resources and registry alike, with a call in flight', { timeout: 90_000 }, async () => {
        const resources = await options.resources();
        const { registry, errors } = contractRegistry(resources, factory);
        // The call may finish first (then this disposes after use) or still run (then it disposes under it).
        const pending = registry.call(call.tool, call.args);
        await Promise.race([pending, delay(IN_FLIGHT_MS)]);
        expect(await disposeTwiceProblems(registry, resources, errors, DISPOSE_MS)).toEqual([]);
        const answer = await pending;
        expect(resultText(answer)).not.toMatch(/^\S+ failed: /);
        const warm = options.warmUp;
        if (warm) expect(await waitForNoProcesses(markerOf(warm.marker, resources), 10_000)).toEqual([]);
      });
    }

    const warmUp = options.warmUp;
    if (warmUp) {
      it('leaves no process behind after dispose', { timeout: 60_000 }, async () => {
        const resources = await options.resources();
        const marker = markerOf(warmUp.marker, resources);
        const registry = createRegistry({ resources, factories: [factory], approve: approveAll });
        await registry.call(warmUp.tool, warmUp.args);
        await registry.dispose();
        expect(await waitForNoProcesses(marker, 10_000)).toEqual([]);
      });
    }

    const harness = options.harness;
    if (warmUp && harness) {
      for (const death of ['exit', 'sigkill'] as const) {
        const how = death === 'exit' ? 'exits' : 'is SIGKILLed';
        it(`leaves no process behind when the harness ${how} without disposing (real processes, found through /proc)`, { timeout: 120_000 }, async () => {
          await using dir = tempDir({});
          const outcome = await harnessDeath({ module: harness, dir: dir.path, call: warmUp, death, budgetMs: HARNESS_DEATH_BUDGET_MS });
          // The check proves something only if the call started processes.
          expect(outcome.started, outcome.answer.text).toBeGreaterThan(0);
          expect(outcome.survivors).toEqual([]);
        });
      }
    }
  });
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function markerOf(marker: string | ((resources: Resources) => string), resources: Resources): string {
  return typeof marker === 'string' ? marker : marker(resources);
}
