import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { approveAll, createRegistry, resultText } from '@agent-tools/core';
import { tempDir } from '@agent-tools/test-utils';
import { afterAll, describe, expect, it } from 'vitest';
import { AstError, astTools } from '../src/index.js';
import { searchWorkspace } from '../src/workspace/search.js';
import { AST_GREP } from './corpus.js';
import { inlineLoader } from './helpers.js';

const loader = inlineLoader();
afterAll(() => loader.dispose());

const TS = `async function load(url: string) {
  const r = await fetch(url);
  try {
    const s = await fetch(url + "/x");
  } catch (e) {}
  return r;
}
function plain() { fetch("y"); }
class Button extends Component { onClick() { this.x = 1; } onHover() {} render() {} }
class Other { onLoad() {} }
const eq1 = a == "s";
const eq2 = a == b;
foo(1, "two", three);
`;

const dir = tempDir({ 'a.ts': TS });
afterAll(() => dir.remove());

type Params = Parameters<typeof searchWorkspace>[2];

async function ours(params: Params): Promise<string[]> {
  const summary = await searchWorkspace(loader, dir.path, { language: 'typescript', ...params });
  return summary.results.flatMap((r) => r.matches.map((m) => m.text));
}

/** What `ast-grep scan` finds for the same rule: the texts of its matches. */
function cli(rule: Record<string, unknown>, extra: Record<string, unknown> = {}): string[] {
  const config = JSON.stringify({ id: 'r', language: 'typescript', rule, ...extra });
  const out = execFileSync(AST_GREP, ['scan', '--inline-rules', config, '--json=compact', '.'], { cwd: dir.path, encoding: 'utf8' });
  return (JSON.parse(out) as { text: string }[]).map((m) => m.text);
}

async function agree(rule: Record<string, unknown>, extra: { constraints?: Record<string, unknown>; utils?: Record<string, unknown> } = {}): Promise<string[]> {
  const found = await ours({ rule, ...extra });
  expect([...found].sort()).toEqual(cli(rule, extra).sort());
  return found;
}

describe('rules, each kind of key, against the ast-grep CLI on the same file', () => {
  it('atomic: pattern, kind, regex, nthChild, pattern object with context and selector', async () => {
    expect(await agree({ pattern: 'fetch($A)' })).toEqual(['fetch(url)', 'fetch(url + "/x")', 'fetch("y")']);
    expect(await agree({ kind: 'method_definition', regex: '^on' })).toHaveLength(3);
    expect(await agree({ kind: 'string', nthChild: 2 })).toEqual(['"/x"', '"s"', '"two"']);
    expect(await agree({ kind: 'identifier', nthChild: { position: 1, reverse: true }, inside: { kind: 'arguments' } })).toEqual(['url', 'three']);
    expect(await agree({ pattern: { context: 'class A { $M() {} }', selector: 'method_definition' } })).toEqual(['onHover() {}', 'render() {}', 'onLoad() {}']);
  });

  it('relational: inside, has, precedes, follows with stopBy and field', async () => {
    const fetchNotInTry = {
      pattern: 'fetch($$$)',
      inside: { kind: 'function_declaration', regex: '^async', stopBy: 'end' },
      not: { inside: { kind: 'try_statement', stopBy: 'end' } },
    };
    expect(await agree(fetchNotInTry)).toEqual(['fetch(url)']);
    const onMethodsOfComponents = {
      kind: 'method_definition',
      has: { field: 'name', regex: '^on' },
      inside: { kind: 'class_declaration', stopBy: 'end', has: { kind: 'class_heritage', regex: 'Component' } },
    };
    expect(await agree(onMethodsOfComponents)).toEqual(['onClick() { this.x = 1; }', 'onHover() {}']);
    expect(await agree({ kind: 'try_statement', precedes: { kind: 'return_statement' } })).toHaveLength(1);
    expect(await agree({ kind: 'return_statement', follows: { kind: 'lexical_declaration', stopBy: 'end' } })).toEqual(['return r;']);
    expect(await agree({ kind: 'call_expression', inside: { kind: 'statement_block', stopBy: { kind: 'try_statement' } } })).toHaveLength(3);
    expect(await agree({ kind: 'identifier', inside: { kind: 'binary_expression', field: 'right' } })).toEqual(['b']);
  });

  it('composite: all, any, not, matches with utils; constraints', async () => {
    expect(await agree({ all: [{ kind: 'string' }, { inside: { kind: 'arguments' } }] })).toEqual(['"y"', '"two"']);
    expect(await agree({ any: [{ kind: 'number' }, { kind: 'string' }], inside: { kind: 'arguments' } })).toEqual(['"y"', '1', '"two"']);
    expect(await agree({ matches: 'lit' }, { utils: { lit: { any: [{ kind: 'number' }, { kind: 'string' }] } } })).toHaveLength(6);
    expect(await agree({ pattern: '$A == $B' }, { constraints: { B: { kind: 'string' } } })).toEqual(['a == "s"']);
    expect(await agree({ pattern: '$A == $B' }, { constraints: { B: { regex: '^b' } } })).toEqual(['a == b']);
  });

  it('metavariables bound by one key must be the same code in another', async () => {
    const rule = { pattern: 'const $X = $A == $B', has: { pattern: '$A', stopBy: 'end' } };
    expect(await agree(rule)).toHaveLength(2);
    const narrowed = { pattern: '$A == $B', inside: { pattern: 'const $A = $$$', stopBy: 'end' } };
    expect(await agree(narrowed)).toEqual([]);
  });

  it('strictness: signature ignores the text of leaves, cst counts every token', async () => {
    expect(await agree({ pattern: { context: 'fetch("q")', strictness: 'signature' } })).toEqual(['fetch("y")']);
    expect(await agree({ pattern: { context: 'fetch("q")', strictness: 'smart' } })).toEqual([]);
    expect(await agree({ pattern: { context: 'fetch("y")', strictness: 'smart' } })).toEqual(['fetch("y")']);
    expect(await agree({ pattern: { context: 'class $C { $$$B }', strictness: 'ast' } })).toEqual(['class Other { onLoad() {} }']);
    expect(await agree({ pattern: { context: 'function plain() { fetch("y") }', strictness: 'relaxed' } })).toHaveLength(1);
    expect(await agree({ pattern: { context: 'function plain() { fetch("y") }', strictness: 'cst' } })).toEqual([]);
  });

  it('strictness: a file lacking text the strictness does not compare is still searched', async () => {
    // The file has neither `nowhere` nor `zz` nor `===`: signature compares leaves by kind, ast and relaxed skip
    // the pattern's unnamed tokens. These files were once left out unparsed for lacking the pattern's literals.
    expect(await agree({ pattern: { context: 'nowhere("zz")', strictness: 'signature' } })).toEqual(['fetch("y")']);
    expect(await agree({ pattern: { context: '$A === $B', strictness: 'ast' } })).toEqual(['url + "/x"', 'a == "s"', 'a == b']);
    expect(await agree({ pattern: { context: '$A === $B', strictness: 'relaxed' } })).toEqual(['url + "/x"', 'a == "s"', 'a == b']);
    expect(await agree({ pattern: { context: '$A === $B', strictness: 'smart' } })).toEqual([]);
  });

  it('regex: any string, a space or nothing at all included, as ast-grep reads it', async () => {
    expect(await agree({ kind: 'string', regex: ' ' })).toEqual([]);
    expect(await agree({ kind: 'binary_expression', regex: ' ' })).toHaveLength(3);
    expect(await agree({ kind: 'string', regex: '' })).toEqual(['"/x"', '"y"', '"s"', '"two"']);
    expect(await agree({ kind: 'string', not: { regex: '' } })).toEqual([]);
  });

  it('a rule requiring a pattern finds its candidates from the pattern, and finds what a walk over every node finds', async () => {
    // `fetch` occurs rarely in the file, so the rule's candidates come from its occurrences (see anchorOf).
    expect(await agree({ pattern: 'fetch($A)', inside: { kind: 'function_declaration', stopBy: 'end', not: { has: { kind: 'try_statement', stopBy: 'end' } } } })).toEqual([
      'fetch("y")',
    ]);
    expect(await agree({ all: [{ kind: 'call_expression' }, { pattern: 'fetch($A)' }, { not: { inside: { kind: 'try_statement', stopBy: 'end' } } }] })).toEqual([
      'fetch(url)',
      'fetch("y")',
    ]);
    expect(await agree({ pattern: { context: 'fetch($A)', strictness: 'cst' }, has: { kind: 'string', stopBy: 'end' } })).toEqual(['fetch(url + "/x")', 'fetch("y")']);
  });
});

describe('inside, all the way up: ancestors found by position agree with the walk ast-grep does', () => {
  const JS = `function outer(a) {
  first(a);
  function inner(b) { second(b); const f = () => third(b) }
  fourth(a)
}
last()
`;
  const js = tempDir({ 'a.js': JS });
  afterAll(() => js.remove());

  async function both(rule: Record<string, unknown>): Promise<{ ours: string[]; cli: string[] }> {
    const summary = await searchWorkspace(loader, js.path, { language: 'javascript', rule });
    const found = summary.results.flatMap((r) => r.matches.map((m) => `${m.text} ${JSON.stringify(Object.fromEntries(Object.entries(m.captures).map(([k, v]) => [k, v.text])))}`));
    const config = JSON.stringify({ id: 'r', language: 'javascript', rule });
    const out = execFileSync(AST_GREP, ['scan', '--inline-rules', config, '--json=compact', '.'], { cwd: js.path, encoding: 'utf8' });
    const theirs = (JSON.parse(out) as { text: string; metaVariables?: { single?: Record<string, { text: string }> } }[]).map(
      (m) => `${m.text} ${JSON.stringify(Object.fromEntries(Object.entries(m.metaVariables?.single ?? {}).map(([k, v]) => [k, v.text])))}`,
    );
    return { ours: found.sort(), cli: theirs.sort() };
  }

  it('the nearest enclosing function binds, nested functions included', async () => {
    const { ours: found, cli: theirs } = await both({ kind: 'call_expression', inside: { pattern: 'function $F($$$) { $$$ }', stopBy: 'end' } });
    expect(found).toEqual(theirs);
    expect(found).toEqual(['first(a) {"F":"outer"}', 'fourth(a) {"F":"outer"}', 'second(b) {"F":"inner"}', 'third(b) {"F":"inner"}']);
  });

  it('a rule of the root kind matches the root once, as ast-grep does (it matched it twice)', async () => {
    for (const rule of [{ kind: 'program' }, { kind: 'program', has: { kind: 'function_declaration' } }]) {
      const { ours: found, cli: theirs } = await both(rule);
      expect(found, JSON.stringify(rule)).toEqual(theirs);
      expect(found, JSON.stringify(rule)).toHaveLength(1);
    }
  });

  it('an ancestor spanning exactly the same text (a statement without a semicolon), the root, and a rule that is more than a kind', async () => {
    for (const rule of [
      { kind: 'call_expression', inside: { kind: 'expression_statement', stopBy: 'end' } },
      { kind: 'call_expression', inside: { kind: 'program', stopBy: 'end' } },
      { kind: 'call_expression', inside: { kind: 'function_declaration', stopBy: 'end', has: { pattern: 'fourth($$$)', stopBy: 'end' } } },
      { kind: 'call_expression', not: { inside: { any: [{ kind: 'arrow_function' }, { kind: 'statement_block' }], stopBy: 'end' } } },
    ]) {
      const { ours: found, cli: theirs } = await both(rule);
      expect(found, JSON.stringify(rule)).toEqual(theirs);
      expect(found.length, JSON.stringify(rule)).toBeGreaterThan(0);
    }
  });
});

describe('invalid rules are errors naming the key', () => {
  const error = async (params: Params): Promise<string> => {
    try {
      await ours(params);
    } catch (e) {
      expect(e).toBeInstanceOf(AstError);
      return (e as AstError).detail;
    }
    throw new Error('no error');
  };

  it('unknown keys, wrong types, unknown kinds and fields (close ones listed)', async () => {
    expect(await error({ rule: { kind: 'call_expression', insde: { kind: 'x' } } })).toMatch(/rule\.insde.*unknown key.*`inside`/);
    expect(await error({ rule: { kind: 42 } })).toMatch(/rule\.kind.*expected a string, got number 42/);
    expect(await error({ rule: { all: { kind: 'string' } } })).toMatch(/rule\.all.*expected an array/);
    expect(await error({ rule: { kind: 'call_expresion' } })).toMatch(/rule\.kind.*no node kind "call_expresion".*call_expression/);
    expect(await error({ rule: { kind: 'identifier', inside: { kind: 'binary_expression', field: 'rigth' } } })).toMatch(/rule\.inside\.field.*no field "rigth".*right/);
    expect(await error({ rule: { kind: 'identifier', inside: { kind: 'program', stopBy: 'top' } } })).toMatch(/rule\.inside\.stopBy/);
    expect(await error({ rule: { kind: 'identifier', nthChild: '2x+1' } })).toMatch(/rule\.nthChild/);
    expect(await error({ rule: { kind: 'string', regex: '(' } })).toMatch(/rule\.regex.*not a valid regular expression/);
    expect(await error({ rule: { pattern: { context: 'f($A)', selector: 'call' } } })).toMatch(/rule\.pattern\.selector.*call_expression/);
    expect(await error({ rule: { pattern: { context: 'f($A)', strictness: 'loose' } } })).toMatch(/rule\.pattern\.strictness/);
    expect(await error({ rule: { matches: 'nope' } })).toMatch(/rule\.matches.*no util named "nope"/);
    expect(await error({ rule: { kind: 'string' }, constraints: { Z: { regex: 'a' } } })).toMatch(/constraints\.Z.*binds no \$Z/);
    expect(await error({ rule: { kind: 'string', precedes: { kind: 'string', field: 'left' } } })).toMatch(/rule\.precedes\.field.*only supported in `inside` and `has`/);
  });

  it('the tools take the rule as JSON text (a schema OpenAI strict mode can express); bad JSON names the argument', async () => {
    const registry = createRegistry({ resources: { cwd: dir.path, treeSitter: loader }, factories: [astTools], approve: approveAll });
    const found = await registry.call('ast_grep', { rule: '{"kind": "string", "inside": {"kind": "arguments"}}', constraints: '{}', language: 'typescript' });
    expect(resultText(found)).toMatch(/^2 matches of the rule/);
    const bad = await registry.call('ast_grep', { rule: "{kind: 'string'}", language: 'typescript' });
    expect(bad.isError).toBe(true);
    expect(resultText(bad)).toMatch(/`rule` is not valid JSON/);
  });

  it('unsupported keys are refused by name, never ignored', async () => {
    expect(await error({ rule: { kind: 'string', range: { start: { line: 1, column: 0 } } } })).toMatch(/rule\.range.*not supported/);
    expect(await error({ rule: { kind: 'string', fix: 'x' } })).toMatch(/rule\.fix.*rewrite/);
    expect(await error({ rule: { kind: 'string', matches: { util: 'x' } } })).toMatch(/rule\.matches.*parameterized/);
    expect(await error({ rule: { kind: 'call_expression kind' } })).toMatch(/selector/);
  });

  it('a rule that says nothing about kinds, or can match nothing, is said to be so', async () => {
    expect(await error({ rule: { not: { kind: 'string' } } })).toMatch(/does not say which kinds/);
    expect(await error({ rule: { all: [{ kind: 'string' }, { kind: 'number' }] } })).toMatch(/can match nothing/);
    expect(await error({ rule: { any: [] } })).toMatch(/can match nothing/);
    expect(await error({ rule: {} })).toMatch(/rule.*empty/);
    expect(await error({ utils: { a: { matches: 'b' }, b: { matches: 'a' } }, rule: { matches: 'a' } })).toMatch(/never finish/);
  });
});

describe('ast_edit with a rule and a transform', () => {
  it('rewrites what the rule finds, with substring, replace and convert, as ast-grep scan -U does', async () => {
    const code = 'function getUserName() { return get_user_name; }\nfunction setX() {}\nconst getOther = 1;\n';
    await using work = tempDir({ 'b.ts': code });
    await using copy = tempDir({ 'b.ts': code });
    const registry = createRegistry({ resources: { cwd: work.path, treeSitter: loader }, factories: [astTools], approve: approveAll });
    const rule = { kind: 'function_declaration', has: { field: 'name', pattern: '$N', regex: '^get' } };
    const transform = {
      SNAKE: { convert: { source: '$N', toCase: 'snakeCase' } },
      TAIL: { substring: { source: '$N', startChar: 3 } },
      FETCH: { replace: { source: '$N', replace: '^get(?P<rest>\\w+)', by: 'fetch$rest' } },
    };
    const rewrite = 'const $SNAKE = "$TAIL/$FETCH";';
    const staged = await registry.call('ast_edit', { rule: JSON.stringify(rule), transform: JSON.stringify(transform), rewrite, path: 'b.ts' });
    expect(resultText(staged)).toMatch(/^\(proposed\) 1 replacement/);
    const id = (staged.structured as { editId: string }).editId;
    await registry.call('resolve', { edit_id: id, action: 'accept' });
    const config = JSON.stringify({ id: 'r', language: 'typescript', rule, transform, fix: rewrite });
    execFileSync(AST_GREP, ['scan', '--inline-rules', config, '-U', '.'], { cwd: copy.path, encoding: 'utf8' });
    expect(readFileSync(work.join('b.ts'), 'utf8')).toBe(readFileSync(copy.join('b.ts'), 'utf8'));
    expect(readFileSync(work.join('b.ts'), 'utf8')).toContain('const get_user_name = "UserName/fetchUserName";');
  });

  it('refuses the rewriters transformation and the string form by name', async () => {
    const err = await ours({ rule: { kind: 'identifier' }, transform: { X: { rewrite: { source: '$A', rewriters: [] } } } }).catch((e: AstError) => e.detail);
    expect(err).toMatch(/transform\.X\.rewrite.*not supported/);
  });
});
