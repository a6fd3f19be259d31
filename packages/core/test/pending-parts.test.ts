import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { approveAll, createRegistry, type Diagnostic, resultText } from '../src/index.js';
import { deferred, diag, echoTool, ScriptedSource, scratch, writeTool } from './helpers.js';

// A file checked by two checkers (tsserver and ESLint, as @agent-tools/lsp has them) where one answers within the
// budget and the other does not: the write reports the first one's findings at once, names the other as pending,
// and the ledger keeps the pending checker's earlier findings until it answers.
function setup() {
  const dir = scratch();
  const source = new ScriptedSource();
  const write = writeTool(dir.path);
  const registry = createRegistry({
    resources: { cwd: dir.path, diagnostics: source },
    tools: [write, echoTool('look')],
    approve: approveAll,
    diagnostics: { budgetMs: 200 },
  });
  const file = join(dir.path, 'a.ts');
  return {
    source,
    registry,
    file,
    write: async (content = 'x') => resultText(await registry.call('write', { path: 'a.ts', content })),
    look: async () => resultText(await registry.call('look', {})),
    [Symbol.asyncDispose]: async () => {
      await registry.dispose();
      dir[Symbol.dispose]();
    },
  };
}

const ts = (file: string, line: number, message = "Type 'number' is not assignable to type 'string'.") => diag(file, line, message, { code: 'TS2322', source: 'typescript' });
const lint = (file: string, line: number, rule = 'eqeqeq') => diag(file, line, `rule ${rule} broken`, { code: rule, severity: 'warning', source: 'eslint' });
const tick = () => new Promise((r) => setTimeout(r, 0));

describe('a write whose file has a checker that did not answer in time', () => {
  it('reports the checkers that answered at once, names the pending one first with the call to get it, and appends its part later', async () => {
    await using s = setup();
    const eslint = deferred<readonly Diagnostic[] | undefined>();
    s.source.next(s.file, { partly: [ts(s.file, 3)], parts: [{ name: 'eslint', settled: eslint.promise, next: 'call lsp with action "diagnostics" and file "a.ts"' }] });
    const written = (await s.write()).split('\n');
    expect(written[0]).toBe('Wrote a.ts.');
    expect(written[1]).toBe(
      'INCOMPLETE: diagnostics of a.ts from eslint are still pending (no answer within 200 ms); they will be appended to a later result, or call lsp with action "diagnostics" and file "a.ts" to get them now. The diagnostics below are from the other checkers only.',
    );
    expect(written.slice(2)).toEqual(['New diagnostics in a.ts (1):', "  3:1 error TS2322: Type 'number' is not assignable to type 'string'. [typescript]"]);
    eslint.resolve([lint(s.file, 2)]);
    await tick();
    expect(await s.look()).toBe(['look: hi', 'Late diagnostics from an earlier write:', 'New diagnostics in a.ts, from eslint (1):', '  2:1 warning eqeqeq: rule eqeqeq broken [eslint]'].join('\n'));
  });

  it("keeps the pending checker's earlier findings in the ledger: neither forgotten nor reported again as new", async () => {
    await using s = setup();
    s.source.next(s.file, [ts(s.file, 3), lint(s.file, 2)]);
    expect(await s.write()).toContain('New diagnostics in a.ts (2):');
    // Next write: tsserver answers with the same error, ESLint is late and then reports what it had.
    const eslint = deferred<readonly Diagnostic[] | undefined>();
    s.source.next(s.file, { partly: [ts(s.file, 3)], parts: [{ name: 'eslint', settled: eslint.promise }] });
    const second = await s.write();
    expect(second).toContain('INCOMPLETE: diagnostics of a.ts from eslint are still pending');
    expect(second).toContain('No new diagnostics in a.ts from the checkers that answered.');
    eslint.resolve([lint(s.file, 2)]);
    await tick();
    expect(await s.look()).toContain('No new diagnostics in a.ts from eslint.');
    // tsserver's part stays its own: its error fixed, then back, is new again; ESLint's finding is still known.
    s.source.next(s.file, [lint(s.file, 2)]);
    expect(await s.write()).toContain('No new diagnostics in a.ts.');
    s.source.next(s.file, [ts(s.file, 3), lint(s.file, 2)]);
    expect(await s.write()).toContain("New diagnostics in a.ts (1):\n  3:1 error TS2322: Type 'number' is not assignable to type 'string'. [typescript]");
  });

  it('drops the late part when the file was written again meanwhile, and says when a part never arrived', async () => {
    await using s = setup();
    const stale = deferred<readonly Diagnostic[] | undefined>();
    s.source.next(s.file, { partly: [], parts: [{ name: 'eslint', settled: stale.promise }] });
    await s.write('old');
    s.source.next(s.file, []);
    await s.write('new');
    stale.resolve([lint(s.file, 1)]);
    await tick();
    expect(await s.look()).toBe('look: hi');
    const gaveUp = deferred<readonly Diagnostic[] | undefined>();
    s.source.next(s.file, { partly: [], parts: [{ name: 'eslint', settled: gaveUp.promise }] });
    await s.write('again');
    gaveUp.resolve(undefined);
    await tick();
    expect(await s.look()).toContain('Diagnostics of a.ts from eslint never arrived: the file is not verified by eslint.');
  });

  it('with a baseline from some checkers only, calls nothing of the others new: their findings are listed as not known before', async () => {
    await using s = setup();
    writeFileSync(s.file, 'old');
    s.source.baselineOf(s.file, { partly: [ts(s.file, 1, 'old problem')], parts: [{ name: 'eslint', settled: new Promise(() => {}) }] });
    s.source.next(s.file, [ts(s.file, 1, 'old problem'), ts(s.file, 3), lint(s.file, 2)]);
    const lines = (await s.write()).split('\n');
    expect(lines).toEqual([
      'Wrote a.ts.',
      'New diagnostics in a.ts (1):',
      "  3:1 error TS2322: Type 'number' is not assignable to type 'string'. [typescript]",
      'Diagnostics of a.ts from eslint from before the write were not known in time, so which are new cannot be told; eslint reports 1 now:',
      '  2:1 warning eqeqeq: rule eqeqeq broken [eslint]',
    ]);
    // From then on ESLint's findings are known: the same one is not new on the next write.
    s.source.next(s.file, [ts(s.file, 1, 'old problem'), ts(s.file, 3), lint(s.file, 2)]);
    expect(await s.write()).toBe('Wrote a.ts.\nNo new diagnostics in a.ts.');
  });
});
