import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { waitForNoProcesses } from '@agent-tools/test-utils';
import { describe, expect, it } from 'vitest';
import { debugRig } from './helpers.js';
import { linkPackage, packageFolder } from './js-helpers.js';
import { TS_CART } from './js-programs.js';
import { lineOf } from './programs.js';

const LINE = lineOf(TS_CART, '@line');
const TOTAL = lineOf(TS_CART, '@total');
const PROJECT = { 'package.json': '{"name":"cart","private":true}\n', 'src/cart.ts': TS_CART };

/** The stop, a step and an evaluate on the TypeScript program, however it was run. */
async function stopsOnTypeScriptLines(rig: ReturnType<typeof debugRig>, expectVia: RegExp): Promise<void> {
  await rig.call({ action: 'breakpoints', file: 'src/cart.ts', lines: [LINE] });
  const launched = await rig.call({ action: 'launch', program: 'src/cart.ts' });
  expect(launched.isError, launched.text).toBe(false);
  expect(launched.text).toMatch(expectVia);
  expect(launched.text).toContain(`  line ${LINE}: verified`);
  expect(launched.text).toMatch(new RegExp(`Stopped at a breakpoint in \\S*total at src/cart\\.ts:${LINE}, thread \\d+ "cart\\.[jt]s \\[\\d+\\]"\\.`));
  expect(launched.text).toContain(`> ${LINE} |       const line: number = item.price * item.qty; // @line`);
  // The async stack js-debug gives: main awaited before it called total.
  expect(launched.text).toMatch(new RegExp(`Called from: \\S*main \\(src/cart\\.ts:${TOTAL}\\) ← \\[async: await\\] ← <anonymous> \\(src/cart\\.ts:\\d+\\)`));
  expect(launched.structured.snapshot.frame.path).toBe(rig.dir.join('src/cart.ts'));
  expect(launched.text).toMatch(/item \(Object\) = \{name: 'pen', price: 2, qty: 3\}/);
  expect(launched.text).toMatch(/sum \(number\) = 0/);
  const step = await rig.call({ action: 'step_over' });
  expect(step.text).toContain(`Stopped after the step in`);
  expect(step.text).toContain(`at src/cart.ts:${LINE + 1}`);
  const value = await rig.call({ action: 'evaluate', expression: 'line * 10' });
  expect(value.text).toMatch(/line \* 10 \(number\) = 60$/);
  await rig.call({ action: 'breakpoints', file: 'src/cart.ts', lines: [] });
  const done = await rig.call({ action: 'continue' });
  expect(done.text).toContain('total 11');
  expect(done.structured.state).toBe('ended');
  expect(await waitForNoProcesses(rig.dir.path, 5000)).toEqual([]);
}

describe('js adapter on TypeScript (real js-debug): breakpoints and stops on TypeScript lines', () => {
  it('runs a .ts program through the project\'s tsx', { timeout: 90_000 }, async () => {
    await using rig = debugRig(PROJECT);
    linkPackage(rig.dir.path, 'tsx');
    await stopsOnTypeScriptLines(rig, /The program runs under node v\d+\.\d+\.\d+ \(\S+\) through tsx 4\.\d+\.\d+\./);
  });

  it('runs a .ts program through the project\'s ts-node when it has no tsx', { timeout: 90_000 }, async () => {
    await using rig = debugRig({ ...PROJECT, 'tsconfig.json': '{ "compilerOptions": { "module": "commonjs", "target": "es2022", "strict": true } }\n' });
    linkPackage(rig.dir.path, 'ts-node');
    linkPackage(rig.dir.path, 'typescript');
    await stopsOnTypeScriptLines(rig, /The program runs under node v\d+\.\d+\.\d+ \(\S+\) through ts-node 10\.9\.2\./);
  });

  it('runs tsc\'s source-mapped output for the same .ts program when there is no runner', { timeout: 90_000 }, async () => {
    await using rig = debugRig({
      ...PROJECT,
      'tsconfig.json': '{\n  // tsc -p .\n  "compilerOptions": { "outDir": "dist", "rootDir": "src", "sourceMap": true, "target": "es2022", "module": "commonjs", "strict": true, },\n}\n',
    });
    execFileSync(process.execPath, [join(packageFolder('typescript'), 'bin/tsc'), '-p', rig.dir.path]);
    // tsc removes the interface: the compiled line differs from the TypeScript one, so a stop on the .ts line proves the map is used.
    const compiled = readFileSync(rig.dir.join('dist/cart.js'), 'utf8');
    expect(lineOf(compiled, '@line')).not.toBe(LINE);
    await stopsOnTypeScriptLines(rig, /The program runs under node v\d+\.\d+\.\d+ \(\S+\) through its compiled output dist\/cart\.js \(source-mapped\)\./);
  });

  it('says how to run a .ts program when the project has no runner and no compiled output', { timeout: 30_000 }, async () => {
    await using rig = debugRig(PROJECT);
    const launched = await rig.call({ action: 'launch', program: 'src/cart.ts' });
    expect(launched.isError, launched.text).toBe(true);
    expect(launched.text).toBe(
      "The js adapter cannot launch src/cart.ts: it is TypeScript and the project has no way to run it: install tsx (`npm i -D tsx`) or ts-node, or compile it with source maps (`tsc --sourceMap`) and launch it again (the compiled .js is found through tsconfig.json's outDir) — breakpoints in the .ts files stop either way.",
    );
    expect(rig.pids()).toEqual([]);
  });
});
