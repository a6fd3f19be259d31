/**
 * A stand-in harness for the factory contract, run as a child process: it loads a package's harness module (an
 * ES module exporting `factory` and `resources(dir)`), assembles a registry, makes one call, prints its answer as
 * one JSON line and then `ready`, and waits: to be killed, or (`exit`) for SIGUSR2, on which it exits without
 * disposing.
 *
 * Usage: node contract-harness.js <module-url> <dir> <tool> <args-json> <exit|wait>
 */
import { approveAll, createRegistry, resultText } from '@agent-tools/core';

const [moduleUrl, dir, tool, argsJson, mode] = process.argv.slice(2);
if (!moduleUrl || !dir || !tool || !argsJson || (mode !== 'exit' && mode !== 'wait')) {
  process.stderr.write('usage: contract-harness <module-url> <dir> <tool> <args-json> <exit|wait>\n');
  process.exit(2);
}
const fixture = (await import(moduleUrl)) as { factory: never; resources(dir: string): never };
const registry = createRegistry({ resources: await fixture.resources(dir), factories: [fixture.factory], approve: approveAll });
const result = await registry.call(tool, JSON.parse(argsJson) as unknown);
// Neither path disposes: that is the point.
if (mode === 'exit') process.once('SIGUSR2', () => process.exit(0));
process.stdout.write(`${JSON.stringify({ isError: result.isError, text: resultText(result).slice(0, 2000) })}\nready\n`);
setInterval(() => registry.runId, 60_000);
