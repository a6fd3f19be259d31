import { readFileSync, writeFileSync } from 'node:fs';
import { approveAll, type Registry, resultText, type ToolResult } from '@agent-tools/core';
import { seededRandom, tempDir } from '@agent-tools/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assemble } from '../src/assemble.js';
import { astPlugin } from '../src/plugins/ast.js';
import { lspPlugin } from '../src/plugins/lsp.js';

/**
 * Writes lost under parallel calls: every tool that writes files (resolve, lsp_rename, lsp_fix, the wrapped write and
 * edit) races the others on the same and on different files, from one and from two conversations, with the start of
 * each call put off by a random number of event-loop turns. Whatever the interleaving, the final content of every file
 * must be explained by the answers: some order of the calls that said they wrote, each applied to what the one before
 * left, ends at exactly the file on disk. A write that answers "Wrote" and is then overwritten by a resolve that
 * compared the file before it was written has no such order.
 */

const FILES = ['src/a.ts', 'src/b.ts'] as const;
type File = (typeof FILES)[number];

const tsconfig = JSON.stringify({
  compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, noUnusedLocals: true },
  include: ['src'],
});

function pristine(file: File): string {
  const tag = file === 'src/a.ts' ? 'a' : 'b';
  return `export function alpha_${tag}(x: number): number {\n  const spare_${tag} = 1;\n  return x + 1;\n}\nexport const value_${tag} = alpha_${tag}(2);\n`;
}

/** What a call that answered success did to one file, as a function of the content it found (undefined: impossible). */
type Effect = (content: string) => string | undefined;

interface Claim {
  readonly label: string;
  readonly effects: ReadonlyMap<File, Effect>;
}

interface Op {
  readonly label: string;
  readonly conversation: string;
  /** Event-loop turns before the call starts. */
  readonly delay: number;
  readonly start: (registry: Registry) => Promise<ToolResult>;
  readonly effects: ReadonlyMap<File, Effect>;
}

/** Whether some order of the claims, each applied to what the previous left, turns `initial` into `final`. */
function explained(initial: string, final: string, effects: readonly Effect[]): boolean {
  if (effects.length === 0) return initial === final;
  return effects.some((effect, i) => {
    const next = effect(initial);
    return next !== undefined && explained(next, final, [...effects.slice(0, i), ...effects.slice(i + 1)]);
  });
}

async function turns(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
}

/** Runs the ops at once; answers what no order explains (undefined when all is explained) and which ops succeeded. */
async function race(
  registry: Registry,
  dir: string,
  initial: ReadonlyMap<File, string>,
  ops: readonly Op[],
): Promise<{ failure: string | undefined; succeeded: string[] }> {
  const answers = await Promise.all(
    ops.map(async (op) => {
      await turns(op.delay);
      return op.start(registry);
    }),
  );
  const claims: Claim[] = ops.filter((_, i) => answers[i]?.isError === false);
  const succeeded = claims.map((claim) => claim.label);
  for (const file of FILES) {
    const final = readFileSync(`${dir}/${file}`, 'utf8');
    const effects = claims.flatMap((claim) => {
      const effect = claim.effects.get(file);
      return effect ? [effect] : [];
    });
    if (!explained(initial.get(file) ?? '', final, effects)) {
      const told = ops.map((op, i) => `  ${op.label} [${op.conversation}, +${op.delay}]: ${answers[i]?.isError ? 'error' : 'ok'}: ${resultText(answers[i] as ToolResult).split('\n')[0]}`);
      return { failure: `${file} holds content no order of the successful calls explains.\n${told.join('\n')}\nfinal:\n${final}`, succeeded };
    }
  }
  return { failure: undefined, succeeded };
}

let serial = 0;

function writeOp(file: File, conversation: string, delay: number): Op {
  const content = `${pristine(file)}// written ${++serial}\n`;
  return {
    label: `write ${file}`,
    conversation,
    delay,
    start: (registry) => registry.call('write', { path: file, content }, { conversationId: conversation }),
    effects: new Map([[file, () => content]]),
  };
}

function editOp(file: File, conversation: string, delay: number): Op {
  const anchor = file === 'src/a.ts' ? 'export const value_a' : 'export const value_b';
  const mark = `/* edited ${++serial} */ `;
  return {
    label: `edit ${file}`,
    conversation,
    delay,
    start: (registry) => registry.call('edit', { path: file, old_text: anchor, new_text: `${mark}${anchor}` }, { conversationId: conversation }),
    effects: new Map([[file, (content: string) => (content.split(anchor).length === 2 ? content.replace(anchor, `${mark}${anchor}`) : undefined)]]),
  };
}

/** Stages `x + 1` → `x + 1 + N` in both files now (when the round starts); the op accepts it later. */
async function resolveOp(registry: Registry, initial: ReadonlyMap<File, string>, conversation: string, delay: number): Promise<Op> {
  const n = ++serial;
  const staged = await registry.call(
    'ast_edit',
    { pattern: 'x + 1', rewrite: `x + 1 + ${n}`, path: 'src', language: 'typescript' },
    { conversationId: conversation },
  );
  const id = /edit_id "([^"]+)"/.exec(resultText(staged))?.[1];
  if (!id) throw new Error(`ast_edit staged nothing: ${resultText(staged)}`);
  const effects = new Map<File, Effect>();
  for (const file of FILES) {
    const before = initial.get(file) ?? '';
    if (!before.includes('x + 1')) continue;
    const after = before.replace('x + 1', `x + 1 + ${n}`);
    effects.set(file, (content) => (content === before ? after : undefined));
  }
  return {
    label: `resolve ${id}`,
    conversation,
    delay,
    start: (r) => r.call('resolve', { edit_id: id, action: 'accept' }, { conversationId: conversation }),
    effects,
  };
}

function renameOp(file: File, conversation: string, delay: number): Op {
  const tag = file === 'src/a.ts' ? 'a' : 'b';
  const name = `alpha_${tag}_${++serial}`;
  const old = new RegExp(`\\balpha_${tag}\\w*`, 'g');
  const present = new RegExp(`\\balpha_${tag}\\w*`);
  return {
    label: `lsp_rename ${file} → ${name}`,
    conversation,
    delay,
    start: (registry) => registry.call('lsp_rename', { file, line: 1, symbol: `alpha_${tag}`, new_name: name }, { conversationId: conversation }),
    effects: new Map([[file, (content: string) => (present.test(content) ? content.replace(old, name) : undefined)]]),
  };
}

/** Lists the code actions for the unused `spare_` now; the op applies "Remove unused declaration" later. */
async function fixOp(registry: Registry, file: File, conversation: string, delay: number): Promise<Op | undefined> {
  const tag = file === 'src/a.ts' ? 'a' : 'b';
  const listed = await registry.call('lsp', { action: 'code_actions', file, line: 2, symbol: `spare_${tag}` }, { conversationId: conversation });
  const actions = (listed.structured as { actions?: Array<{ number: number; title: string }> } | undefined)?.actions ?? [];
  const remove = actions.find((a) => a.title.startsWith('Remove unused declaration'));
  if (!remove) return undefined;
  const line = `  const spare_${tag} = 1;\n`;
  return {
    label: `lsp_fix ${file} #${remove.number}`,
    conversation,
    delay,
    start: (r) => r.call('lsp_fix', { file, number: remove.number }, { conversationId: conversation }),
    effects: new Map([[file, (content: string) => (content.includes(line) ? content.replace(line, '') : undefined)]]),
  };
}

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)] as T;
}

describe('no write is lost when writing tools race (generated interleavings)', () => {
  it('resolve, write and edit on the same and different files, from one and two conversations: 1,500 rounds', async () => {
    await using dir = tempDir({ 'tsconfig.json': tsconfig, 'src/a.ts': '', 'src/b.ts': '' });
    await using registry = await assemble({ cwd: dir.path, approve: approveAll, plugins: [astPlugin], conversationId: 'one' });
    const random = seededRandom(2812);
    const tally = new Map<string, number>();
    for (let round = 0; round < 1500; round++) {
      const initial = new Map(FILES.map((file) => [file, pristine(file)] as const));
      for (const [file, content] of initial) writeFileSync(dir.join(file), content);
      const conversations = random() < 0.5 ? ['one'] : ['one', 'two'];
      const ops: Op[] = [];
      const count = 2 + Math.floor(random() * 4);
      for (let i = 0; i < count; i++) {
        const conversation = pick(random, conversations);
        const delay = Math.floor(random() * 12);
        const kind = pick(random, ['write', 'edit', 'resolve', 'resolve'] as const);
        if (kind === 'resolve') ops.push(await resolveOp(registry, initial, conversation, delay));
        else ops.push((kind === 'write' ? writeOp : editOp)(pick(random, FILES), conversation, delay));
      }
      const { failure, succeeded } = await race(registry, dir.path, initial, ops);
      expect(failure, `round ${round}`).toBeUndefined();
      for (const label of succeeded) tally.set(label.split(' ')[0] ?? '', (tally.get(label.split(' ')[0] ?? '') ?? 0) + 1);
    }
    // Every kind of call succeeded often enough for the rounds to have raced it.
    expect(Object.fromEntries(tally)).toMatchObject({ write: expect.any(Number), edit: expect.any(Number), resolve: expect.any(Number) });
    for (const count of tally.values()) expect(count).toBeGreaterThan(100);
  }, 600_000);

  describe('with lsp_rename and lsp_fix (typescript-language-server)', () => {
    let dir: ReturnType<typeof tempDir>;
    let registry: Registry;
    beforeAll(async () => {
      dir = tempDir({ 'tsconfig.json': tsconfig, 'package.json': '{"type":"module"}', 'src/a.ts': pristine('src/a.ts'), 'src/b.ts': pristine('src/b.ts') });
      registry = await assemble({ cwd: dir.path, approve: approveAll, plugins: [lspPlugin, astPlugin], conversationId: 'one' });
    });
    afterAll(async () => {
      await registry.dispose();
      dir.remove();
    });

    it('every tool that writes, 120 rounds: each success is true and the files are what the answers say', async () => {
      const random = seededRandom(2813);
      const tally = new Map<string, number>();
      for (let round = 0; round < 120; round++) {
        const initial = new Map(FILES.map((file) => [file, pristine(file)] as const));
        // The round starts from the pristine files, told to the server the way a model's write would.
        for (const [file, content] of initial) await registry.call('write', { path: file, content });
        const conversations = random() < 0.5 ? ['one'] : ['one', 'two'];
        const ops: Op[] = [];
        const count = 2 + Math.floor(random() * 3);
        for (let i = 0; i < count; i++) {
          const conversation = pick(random, conversations);
          const delay = Math.floor(random() * 40);
          const file = pick(random, FILES);
          const kind = pick(random, ['write', 'edit', 'resolve', 'rename', 'fix'] as const);
          if (kind === 'resolve') ops.push(await resolveOp(registry, initial, conversation, delay));
          else if (kind === 'rename') ops.push(renameOp(file, conversation, delay));
          else if (kind === 'fix') {
            const op = await fixOp(registry, file, conversation, delay);
            if (op) ops.push(op);
          } else ops.push((kind === 'write' ? writeOp : editOp)(file, conversation, delay));
        }
        const { failure, succeeded } = await race(registry, dir.path, initial, ops);
        expect(failure, `round ${round}`).toBeUndefined();
        for (const label of succeeded) tally.set(label.split(' ')[0] ?? '', (tally.get(label.split(' ')[0] ?? '') ?? 0) + 1);
      }
      // The generator really raced the language-server tools: each of them succeeded in several rounds.
      expect(tally.get('lsp_rename') ?? 0, JSON.stringify([...tally])).toBeGreaterThan(20);
      expect(tally.get('lsp_fix') ?? 0, JSON.stringify([...tally])).toBeGreaterThan(20);
    }, 600_000);
  });
});
