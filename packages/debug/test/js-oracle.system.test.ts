import { join } from 'node:path';
import { capText } from '@agent-tools/core/internal';
import { waitForNoProcesses } from '@agent-tools/test-utils';
import { describe, expect, it } from 'vitest';
import { type Answer, debugRig } from './helpers.js';
import { type DirectRun, driveDirectly } from './js-direct.js';
import { copyPackage, lineIn, linkPackage, packageFolder } from './js-helpers.js';
import { FORKER_JS, TS_CART } from './js-programs.js';
import { lineOf } from './programs.js';

/** The tool's stop, step and evaluate answers, in the direct run's terms. */
function toolView(stop: Answer, step: Answer, evaluated: Record<string, Answer>, expanded?: { name: string; answer: Answer }) {
  const s = stop.structured.snapshot;
  const scopes = [s.locals, ...(s.moreLocals ?? [])];
  return {
    stop: { name: s.frame.name, line: s.frame.line, path: s.frame.path, reason: s.stop.reason },
    callers: s.callers.map((f: { name: string; line: number }) => ({ name: f.name, line: f.line })),
    locals: scopes.flatMap((scope: { scope: string; variables: { items: { name: string; value: string; type?: string }[] } }) =>
      scope.variables.items.map((v) => ({ scope: scope.scope, name: v.name, value: v.value, ...(v.type ? { type: v.type } : {}) })),
    ),
    evaluated: Object.fromEntries(Object.entries(evaluated).map(([expression, answer]) => [expression, answer.structured.result.value])),
    ...(expanded
      ? {
          expanded: {
            name: expanded.name,
            children: expanded.answer.structured.items.map((v: { name: string; value: string; type?: string }) => ({ name: v.name, value: v.value, ...(v.type ? { type: v.type } : {}) })),
          },
        }
      : {}),
    afterNext: { name: step.structured.snapshot.frame.name, line: step.structured.snapshot.frame.line },
  };
}

/** The direct run as the tool would show it: values cut at 400 characters, at most 20 variables per scope. */
function shownAs(direct: DirectRun) {
  const perScope = new Map<string, number>();
  return {
    ...direct,
    callers: direct.callers.slice(0, 3),
    locals: direct.locals
      .filter((v) => {
        const seen = (perScope.get(v.scope) ?? 0) + 1;
        perScope.set(v.scope, seen);
        return seen <= 20;
      })
      .map((v) => ({ ...v, value: capText(v.value, 400) })),
    evaluated: Object.fromEntries(Object.entries(direct.evaluated).map(([k, v]) => [k, capText(v, 400)])),
    ...(direct.expanded ? { expanded: { ...direct.expanded, children: direct.expanded.children.slice(0, 50).map((v) => ({ ...v, value: capText(v.value, 400) })) } } : {}),
  };
}

async function compare(
  files: Record<string, string>,
  setup: (dir: string) => { program: string; file: string; line: number; args?: string[]; runtimeArgs?: string[]; expressions: string[] },
) {
  await using rig = debugRig(files);
  const c = setup(rig.dir.path);
  const direct = await driveDirectly({
    program: rig.dir.join(c.program),
    args: c.args ?? [],
    cwd: rig.dir.path,
    breakpoint: { path: rig.dir.join(c.file), line: c.line },
    expressions: c.expressions,
    ...(c.runtimeArgs ? { runtimeArgs: c.runtimeArgs } : {}),
  });
  expect(await waitForNoProcesses(rig.dir.path, 5000)).toEqual([]);
  await rig.call({ action: 'breakpoints', file: c.file, lines: [c.line] });
  const stop = await rig.call({ action: 'launch', program: c.program, args: c.args ?? [] });
  expect(stop.isError, stop.text).toBe(false);
  const evaluated: Record<string, Answer> = {};
  for (const expression of c.expressions) evaluated[expression] = await rig.call({ action: 'evaluate', expression });
  // The first local with children, expanded with variables, as the direct run expanded it.
  const scopes = [stop.structured.snapshot.locals, ...(stop.structured.snapshot.moreLocals ?? [])];
  const local = scopes
    .flatMap((scope: { variables: { items: { name: string; reference?: number }[] } }) => scope.variables.items)
    .find((v: { name: string; reference?: number }) => v.name !== 'this' && v.reference !== undefined);
  const expanded = local ? { name: local.name, answer: await rig.call({ action: 'variables', reference: local.reference }) } : undefined;
  const step = await rig.call({ action: 'step_over' });
  expect(toolView(stop, step, evaluated, expanded)).toEqual(shownAs(direct));
  expect(direct.locals.length).toBeGreaterThan(0);
  await rig.call({ action: 'terminate' });
  return direct;
}

describe('the tool\'s answers equal what js-debug reports when driven directly (real js-debug, real programs)', () => {
  it('semver\'s CLI entry (npm package): stop, callers, locals, evaluate, next', { timeout: 120_000 }, async () => {
    await compare({}, (dir) => {
      copyPackage('semver', dir, 'semver');
      const file = 'semver/bin/semver.js';
      return {
        program: file,
        file,
        line: lineIn(join(dir, file), 'versions = versions.map((v) => {'),
        args: ['1.2.3', '0.9.0', '2.0.0-rc.1', '-r', '>=1.0.0'],
        expressions: ['versions', 'range', 'JSON.stringify(options)', 'argv.length'],
      };
    });
  });

  it('a TypeScript program through tsx: the same TypeScript lines and values', { timeout: 120_000 }, async () => {
    const direct = await compare({ 'package.json': '{"name":"cart"}', 'src/cart.ts': TS_CART }, (dir) => {
      linkPackage(dir, 'tsx');
      return {
        program: 'src/cart.ts',
        file: 'src/cart.ts',
        line: lineOf(TS_CART, '@line'),
        runtimeArgs: ['--import', `file://${join(packageFolder('tsx'), 'dist/loader.mjs')}`],
        expressions: ['item.name', 'this.items.length', 'sum + item.price * item.qty'],
      };
    });
    // The object expanded on both sides: item {name, price, qty}.
    expect(direct.expanded?.name).toBe('item');
    expect(direct.expanded?.children.map((v) => v.name)).toEqual(expect.arrayContaining(['name', 'price', 'qty']));
  });

  it('a forked child process (a child session): the same stop and values', { timeout: 120_000 }, async () => {
    await compare({ 'fork.js': FORKER_JS }, () => ({
      program: 'fork.js',
      file: 'fork.js',
      line: lineOf(FORKER_JS, '@child'),
      expressions: ['process.argv[2]', '6 * 7'],
    }));
  });
});
