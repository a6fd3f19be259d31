import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerServerRequest } from '../src/server/server-requests.js';
import { type Run, startRun, text } from './helpers.js';

const files = {
  'tsconfig.json': JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true }, include: ['src'] }),
  'package.json': '{"type":"module"}',
  'src/shapes.ts': 'export class Square {\n  constructor(readonly side: number) {}\n}\nexport class Circle {\n  constructor(readonly radius: number) {}\n}\n',
  'src/uses.ts': 'export const s = new Square(1);\nexport const c = new Circle(2);\n',
};

describe('lsp_fix applies a listed code action (typescript-language-server)', () => {
  let run: Run;
  beforeAll(() => {
    run = startRun(files);
  });
  afterAll(async () => {
    await run[Symbol.asyncDispose]();
  });

  it('is a write-tier tool: absent from the plan surface', () => {
    expect(run.registry.tools('plan').map((t) => t.name)).not.toContain('lsp_fix');
    expect(run.registry.tools().map((t) => t.name)).toContain('lsp_fix');
  });

  it('refuses without a list, and a number that is not on it', async () => {
    const none = await run.call('lsp_fix', { file: 'src/uses.ts', number: 1 });
    expect(text(none)).toBe('No code actions were listed for src/uses.ts in this run. Call lsp with action "code_actions" (file, line, symbol) first, then lsp_fix with the number of the action.');
    await run.lsp({ action: 'code_actions', file: 'src/uses.ts', line: 1, symbol: 'Square' });
    const missing = await run.call('lsp_fix', { file: 'src/uses.ts', number: 99 });
    expect(text(missing)).toMatch(/^The last code_actions list for src\/uses.ts \(line 1, `Square`\) has \d+ actions?; there is no number 99\.$/);
  });

  it('applies an action with an edit, and refuses once the file changed since the list', async () => {
    const list = await run.lsp({ action: 'code_actions', file: 'src/uses.ts', line: 1, symbol: 'Square' });
    const actions = (list.structured as { actions: Array<{ number: number; title: string }> }).actions;
    const add = actions.find((a) => /^Add import from "\.\/shapes(\.js)?"$/.test(a.title));
    expect(add, text(list)).toBeDefined();
    const fixed = await run.call('lsp_fix', { file: 'src/uses.ts', number: add?.number });
    expect(fixed.isError, text(fixed)).toBe(false);
    expect(text(fixed)).toContain(`Applied "${add?.title}" (action ${add?.number} at src/uses.ts:1): 1 edit in 1 file.`);
    expect(readFileSync(run.dir.join('src/uses.ts'), 'utf8')).toMatch(/^import \{ Square \} from "\.\/shapes(\.js)?";\n/);
    // The remaining error (Circle) was there before: the write hook reports nothing new.
    expect(text(fixed)).not.toContain('New diagnostics');
    expect(fixed.structured).toMatchObject({ action: 'fix', files: [{ file: 'src/uses.ts', edits: 1 }] });

    await run.lsp({ action: 'code_actions', file: 'src/uses.ts', line: 3, symbol: 'Circle' });
    writeFileSync(run.dir.join('src/uses.ts'), `${readFileSync(run.dir.join('src/uses.ts'), 'utf8')}// touched\n`);
    const stale = await run.call('lsp_fix', { file: 'src/uses.ts', number: 1 });
    expect(stale.isError).toBe(true);
    expect(text(stale)).toBe('src/uses.ts changed since its code actions were listed, so action 1 may no longer fit; nothing was changed. Call lsp code_actions again and pick from the new list.');
  });

  it('runs an action that is a server command, taking the edits the server sends back through workspace/applyEdit', async () => {
    writeFileSync(run.dir.join('src/more.ts'), 'export const a = new Square(1);\nexport const b = new Circle(1);\n');
    const list = await run.lsp({ action: 'code_actions', file: 'src/more.ts', line: 1, symbol: 'Square' });
    expect(text(list)).toContain('(the server makes this change itself when lsp_fix runs its command _typescript.applyRefactoring)');
    const actions = (list.structured as { actions: Array<{ number: number; title: string; command?: string; edits: unknown[] }> }).actions;
    const move = actions.find((a) => a.title === 'Move to a new file');
    expect(move, text(list)).toMatchObject({ command: '_typescript.applyRefactoring', edits: [] });
    const moved = await run.call('lsp_fix', { file: 'src/more.ts', number: move?.number });
    expect(moved.isError, text(moved)).toBe(false);
    expect(text(moved)).toContain(`Applied "Move to a new file" (action ${move?.number} at src/more.ts:1): 2 edits in 2 files.`);
    // typescript-language-server creates the new file empty itself; its content came through the all-or-nothing path
    // and the write hook checked it.
    expect(readFileSync(run.dir.join('src/more.ts'), 'utf8')).toBe('export const b = new Circle(1);\n');
    expect(readFileSync(run.dir.join('src/a.ts'), 'utf8')).toContain('export const a = new Square(1);');
    expect(text(moved)).toContain("New diagnostics in src/a.ts (1):\n  1:22 error TS2304: Cannot find name 'Square'.");
    expect(moved.structured).toMatchObject({ action: 'fix', title: 'Move to a new file', files: [{ file: 'src/more.ts', edits: 1 }, { file: 'src/a.ts', edits: 1 }] });
  });

  it('edits a server sends back outside an lsp_fix command are declined', async () => {
    const context = { root: run.dir.path, settings: () => ({}), registrations: new Map(), registered: () => {} };
    const params = { edit: { changes: { [`file://${run.dir.join('src/shapes.ts')}`]: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, newText: '// x\n' }] } } };
    expect(await answerServerRequest('workspace/applyEdit', params, context)).toEqual({
      applied: false,
      failureReason: 'This client applies edits only while lsp_fix runs a command of the server.',
    });
    let taken: unknown;
    const accepting = {
      ...context,
      applyEdit: async (p: unknown) => {
        taken = p;
        return { applied: true };
      },
    };
    expect(await answerServerRequest('workspace/applyEdit', params, accepting)).toEqual({ applied: true });
    expect(taken).toEqual(params);
  });
});
