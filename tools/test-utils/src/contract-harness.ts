/**
 * A stand-in harness for the factory contract, run as a child process: it loads a package's harness module (an
 * ES module exporting `factory` and `resources(dir)`), assembles a registry, makes one call, prints its answer as
 * one JSON line, and ends as every stand-in does ({@link standIn}): it waits to be killed, or for SIGUSR2, on
 * which it exits without disposing.
 *
 * Usage: node contract-harness.js <module-url> <dir> <tool> <args-json>
 */
import { approveAll, createRegistry, resultText } from '@agent-tools/core';
import { standIn } from './stand-in.js';

const [moduleUrl, dir, tool, argsJson] = process.argv.slice(2);
if (!moduleUrl || !dir || !tool || !argsJson) {
  process.stderr.write('usage: contract-harness <module-url> <dir> <tool> <args-json>\n');
  process.exit(2);
}
const fixture = (await import(moduleUrl)) as { factory: never; resources(dir: string): never };
const registry = createRegistry({ resources: await fixture.resources(dir), factories: [fixture.factory], approve: approveAll });
const result = await registry.call(tool, JSON.parse(argsJson) as unknown);
process.stdout.write(`${JSON.stringify({ isError: result.isError, text: resultText(result).slice(0, 2000) })}\n`);
await standIn(() => registry.dispose());
