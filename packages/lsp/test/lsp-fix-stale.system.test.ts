import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { tempDir } from '@agent-tools/test-utils';
import { describe, expect, it } from 'vitest';
import { commandActionScript, fakeServer, startRun, text } from './helpers.js';

type Listed = { actions: Array<{ number: number; title: string }> };

const ts = {
  'tsconfig.json': JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true }, include: ['src'] }),
  'package.json': '{"type":"module"}',
  'src/box.ts': 'export class Box {\n  size = 1;\n}\n',
  'src/main.ts': "import { Box } from './box.js';\n\nexport const opened = new Box().open(2);\n",
};
const moved = '// The box.\n// It holds things.\nexport class Box {\n  size = 1;\n}\n';

/** The number of tsserver's "Declare method 'open'" fix in a code_actions answer (it edits src/box.ts). */
function declareMethod(structured: unknown): number {
  const found = (structured as Listed).actions.find((a) => a.title === "Declare method 'open'");
  if (!found) throw new Error(`no "Declare method" action in ${JSON.stringify(structured)}`);
  return found.number;
}

describe('lsp_fix never applies an edit to a file that moved under it', () => {
  it('typescript-language-server: an action editing another file that changed since the list is refused, naming it', async () => {
    await using run = startRun(ts);
    const list = await run.lsp({ action: 'code_actions', file: 'src/main.ts', line: 3, symbol: 'open' });
    const number = declareMethod(list.structured);
    writeFileSync(run.dir.join('src/box.ts'), moved);
    const fixed = await run.call('lsp_fix', { file: 'src/main.ts', number });
    expect(fixed.isError, text(fixed)).toBe(true);
    expect(text(fixed)).toBe(
      `src/box.ts, which action ${number} edits, changed since the code actions were listed, so its edit may no longer fit; nothing was changed. Call lsp code_actions again and pick from the new list.`,
    );
    expect(readFileSync(run.dir.join('src/box.ts'), 'utf8')).toBe(moved);
  });

  it('an action editing a file written since its server started (it may hold an older copy) is asked for again with that file open (scripted server)', async () => {
    using scriptDir = tempDir({}, 'agent-tools-lsp-script-');
    const script = scriptDir.join('script.json');
    const log = scriptDir.join('log.jsonl');
    const insert = { range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, newText: 'fixed ' };
    const action = { title: 'Fix the other file', kind: 'quickfix', edit: { changes: { '$ROOT/other.fake': [insert] } } };
    writeFileSync(script, JSON.stringify({ capabilities: { codeActionProvider: true }, publishOnSync: [], logFile: log, methods: { 'textDocument/codeAction': { reply: [action] } } }));
    await using scripted = startRun({ 'fake.json': '{}', 'a.fake': 'alpha\n', 'other.fake': 'old\n' }, { builtins: false, servers: [fakeServer(script)] }, 300);
    await scripted.lsp({ action: 'status' });
    writeFileSync(scripted.dir.join('other.fake'), 'new\n');
    const list = await scripted.lsp({ action: 'code_actions', file: 'a.fake', line: 1, symbol: 'alpha' });
    expect(text(list)).toContain('1. Fix the other file [quickfix]');
    const sent = readFileSync(log, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { method?: string; params?: { textDocument?: { uri: string; text?: string } } });
    const order = sent.filter((m) => m.method === 'textDocument/codeAction' || (m.method === 'textDocument/didOpen' && m.params?.textDocument?.uri.endsWith('other.fake')));
    expect(order.map((m) => m.method)).toEqual(['textDocument/codeAction', 'textDocument/didOpen', 'textDocument/codeAction']);
    expect(order[1]?.params?.textDocument?.text).toBe('new\n');
    const fixed = await scripted.call('lsp_fix', { file: 'a.fake', number: 1 });
    expect(fixed.isError, text(fixed)).toBe(false);
    expect(readFileSync(scripted.dir.join('other.fake'), 'utf8')).toBe('fixed new\n');
  });

  it("gopls: a command's edit of a file changed behind the server is computed again on the file as it is", async () => {
    await using run = startRun({
      'go.mod': 'module example.com/shapes\n\ngo 1.19\n',
      'point.go': 'package main\n\ntype Point struct {\n\tX int\n}\n',
      'main.go': 'package main\n\nfunc main() {\n\tp := Point{}\n\tvar s Shape = p\n\t_ = s\n}\n\ntype Shape interface{ Area() float64 }\n',
    });
    const list = await run.lsp({ action: 'code_actions', file: 'main.go', line: 5, symbol: 'p' });
    const implement = (list.structured as Listed).actions.find((a) => a.title === 'Implement Shape');
    expect(implement, text(list)).toBeDefined();
    const point = 'package main\n\n// Point is a point.\n// It has a place.\ntype Point struct {\n\tX int\n\tY int\n}\n';
    writeFileSync(run.dir.join('point.go'), point);
    const fixed = await run.call('lsp_fix', { file: 'main.go', number: implement?.number });
    expect(fixed.isError, text(fixed)).toBe(false);
    const after = readFileSync(run.dir.join('point.go'), 'utf8');
    expect(after.startsWith(point)).toBe(true);
    expect(after.slice(point.length)).toMatch(/^\n\/\/ Area implements Shape\.?\nfunc \(\w* ?Point\) Area\(\) float64 \{\n\tpanic\("unimplemented"\)\n\}\n$/);
    expect(text(fixed)).not.toContain('New diagnostics');
  });

  it('a command whose second edit is declined (read-only file) undoes the first: everything or nothing (scripted server)', async () => {
    const edit = (file: string, newText: string) => ({ changes: { [`$ROOT/${file}`]: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, newText }] } });
    using fix = commandActionScript([edit('a.fake', 'one '), edit('b.fake', 'two ')], 'Fix both');
    // The scripted server publishes no diagnostics: a short budget for the write hook's wait.
    await using scripted = startRun({ 'fake.json': '{}', 'a.fake': 'alpha\n', 'b.fake': 'beta\n' }, { builtins: false, servers: [fakeServer(fix.script)] }, 300);
    chmodSync(scripted.dir.join('b.fake'), 0o444);
    const list = await scripted.lsp({ action: 'code_actions', file: 'a.fake', line: 1, symbol: 'alpha' });
    expect(text(list)).toContain('1. Fix both');
    const fixed = await scripted.call('lsp_fix', { file: 'a.fake', number: 1 });
    expect(fixed.isError, text(fixed)).toBe(true);
    expect(text(fixed)).toBe(
      'The server ran "Fix both" but an edit it sent back could not be applied (The edit would change b.fake (mode 444), which is read-only; nothing was changed. Ask the user before making it writable.); the 1 file it had already changed was restored, so nothing was changed. Call lsp code_actions again.',
    );
    expect(readFileSync(scripted.dir.join('a.fake'), 'utf8')).toBe('alpha\n');
    expect(readFileSync(scripted.dir.join('b.fake'), 'utf8')).toBe('beta\n');
  });
});
