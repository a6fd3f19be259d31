import type { Language } from 'web-tree-sitter';
import type { TreeSitterRuntime } from '../engine/runtime.js';
import { AstError } from '../errors.js';
import type { LanguageSpec } from '../languages.js';
import { type CompileOptions, compilePattern } from '../pattern/compile.js';
import type { CompiledPattern, Strictness } from '../pattern/pattern-node.js';
import { compileContextual } from './contextual.js';
import { potentialKinds } from './kinds.js';
import { closeNames, fieldNames, namedKinds } from './names.js';
import { anchorOf, requiredLiterals } from './prefilter.js';
import { toJsRegExp } from './regex.js';
import { compileTransform } from './transform.js';
import type { CompiledRule, RuleNode, StopBy } from './types.js';

/** What the model passes: ast-grep's rule object and the parts of a rule configuration that go with it. */
export interface RuleInput {
  readonly rule: unknown;
  readonly constraints?: unknown;
  readonly utils?: unknown;
  readonly transform?: unknown;
}

const ATOMIC = ['pattern', 'kind', 'regex', 'nthChild'] as const;
const RELATIONAL = ['inside', 'has', 'precedes', 'follows'] as const;
const COMPOSITE = ['all', 'any', 'not', 'matches'] as const;
const RULE_KEYS: readonly string[] = [...ATOMIC, ...RELATIONAL, ...COMPOSITE];
const STRICTNESS: readonly Strictness[] = ['cst', 'smart', 'ast', 'relaxed', 'signature'];

/** Keys of ast-grep's rule objects and configurations that are refused by name, with what to do instead. */
const REFUSED: Readonly<Record<string, string>> = {
  range: 'the `range` rule is not supported here; search a file and read the line numbers of the matches instead',
  fix: 'a fix is the `rewrite` argument of ast_edit',
  rewriters: '`rewriters` are not supported',
  id: 'a rule here has no id (pass the rule object itself)',
  language: 'the language is the `language` argument of the tool',
  message: 'messages are not supported (this is a search, not a linter)',
  severity: 'severities are not supported (this is a search, not a linter)',
  note: 'notes are not supported (this is a search, not a linter)',
  files: 'file globs are not supported: pass `path`',
  ignores: 'file globs are not supported: pass `path`',
  labels: 'labels are not supported',
  metadata: 'metadata is not supported',
  url: 'urls are not supported',
  rule: '`rule` inside a rule object: pass the rule object itself as `rule`, with `constraints`, `utils` (and `transform` for ast_edit) as arguments of their own',
  constraints: '`constraints` is an argument of the tool, beside `rule`, not a key inside it',
  utils: '`utils` is an argument of the tool, beside `rule`, not a key inside it',
  transform: '`transform` is an argument of ast_edit, beside `rule`, not a key inside it',
};

/**
 * Checks and compiles ast-grep's rule object for a language: every key known or refused by name, every value of
 * the right type, kinds and fields the grammar has (close names listed when not), regular expressions and util
 * references valid, patterns compiled as `ast_grep` compiles a pattern. Throws an `invalid_rule` {@link AstError}
 * naming the key (as a path such as `rule.inside.stopBy`) otherwise.
 * @internal
 */
export async function compileRule(
  runtime: TreeSitterRuntime,
  spec: LanguageSpec,
  input: RuleInput,
  options: CompileOptions = {},
): Promise<CompiledRule> {
  const language = await runtime.language(spec);
  const contexts = new Set<string>();
  const singles = new Set<string>();
  const multis = new Set<string>();
  const utilNames = new Set<string>(Object.keys(asObject(input.utils ?? {}, 'utils')));
  const ctx: Ctx = { runtime, spec, language, options, contexts, singles, multis, utilNames };

  const utils: Record<string, RuleNode> = {};
  for (const [name, raw] of Object.entries(asObject(input.utils ?? {}, 'utils'))) {
    utils[name] = await compileNode(ctx, raw, `utils.${name}`, false);
  }
  const root = await compileNode(ctx, input.rule, 'rule', false);
  const constraints: Record<string, RuleNode> = {};
  for (const [key, raw] of Object.entries(asObject(input.constraints ?? {}, 'constraints'))) {
    const name = key.replace(/^\$+/, '');
    if (!/^[A-Z_][A-Z0-9_]*$/.test(name)) {
      throw invalid(`constraints.${key}`, 'a constraint is keyed by a metavariable name such as A or $A.');
    }
    constraints[name] = await compileNode(ctx, raw, `constraints.${key}`, false);
  }
  for (const name of Object.keys(constraints)) {
    if (!singles.has(name)) {
      throw invalid(`constraints.${name}`, `the rule binds no $${name} (it binds: ${[...singles].map((s) => `$${s}`).join(', ') || 'nothing'}).`);
    }
  }
  checkCycles(utils, root);
  const transform = compileTransform(input.transform, singles, multis);
  const kinds = potentialKinds(root, utils, new Set());
  if (kinds === undefined) {
    throw invalid(
      'rule',
      'the rule does not say which kinds of node it matches (a rule of only `not`, `regex`, `nthChild` or relational keys could match any node). Add `kind` or `pattern` beside them, e.g. { "kind": "call_expression", "regex": "^foo" }.',
    );
  }
  if (kinds.size === 0) {
    throw invalid('rule', 'the rule can match nothing: it requires a node to be of several kinds at once (or has an empty `any`). Check its `kind`s and `pattern`s.');
  }
  const kindIds = [...kinds].sort((a, b) => a - b);
  const transformed = transform.map(([name]) => name);
  return {
    type: 'rule',
    language: spec.id,
    source: JSON.stringify({
      rule: input.rule,
      ...(input.constraints !== undefined ? { constraints: input.constraints } : {}),
      ...(input.utils !== undefined ? { utils: input.utils } : {}),
    }),
    root,
    utils,
    constraints,
    transform,
    kinds: kindIds,
    kindNames: [...new Set(kindIds.map((id) => language.nodeTypeForId(id) ?? ''))].filter(Boolean),
    literals: [...requiredLiterals(root, utils, new Set())].sort((a, b) => b.length - a.length),
    ...anchorOf(root),
    singles: [...singles, ...transformed],
    multis: [...multis],
    context: [...contexts].join('; '),
  };
}

interface Ctx {
  readonly runtime: TreeSitterRuntime;
  readonly spec: LanguageSpec;
  readonly language: Language;
  readonly options: CompileOptions;
  readonly contexts: Set<string>;
  readonly singles: Set<string>;
  readonly multis: Set<string>;
  readonly utilNames: ReadonlySet<string>;
}

async function compileNode(ctx: Ctx, raw: unknown, path: string, relation: boolean): Promise<RuleNode> {
  const obj = asObject(raw, path);
  const allowed = relation ? [...RULE_KEYS, 'stopBy', 'field'] : RULE_KEYS;
  for (const key of Object.keys(obj)) {
    if (allowed.includes(key)) continue;
    if (!relation && (key === 'stopBy' || key === 'field')) {
      throw invalid(`${path}.${key}`, `\`${key}\` belongs inside a relational rule (inside, has${key === 'stopBy' ? ', precedes, follows' : ''}), e.g. { "inside": { "kind": "function_declaration", "${key}": ${key === 'stopBy' ? '"end"' : '"body"'} } }.`);
    }
    const refused = REFUSED[key];
    if (refused) throw invalid(`${path}.${key}`, `${refused}.`);
    const close = closeNames(key, allowed, 3);
    throw invalid(`${path}.${key}`, `unknown key.${close.length ? ` Did you mean ${close.map((c) => `\`${c}\``).join(' or ')}?` : ''} A rule object takes ${allowed.map((k) => `\`${k}\``).join(', ')}.`);
  }
  const parts: RuleNode[] = [];
  // ast-grep's order: atomic, then composite, then relational (they share metavariables, bound in this order).
  if (obj['pattern'] !== undefined) parts.push(await compilePatternKey(ctx, obj['pattern'], `${path}.pattern`));
  if (obj['kind'] !== undefined) parts.push(compileKind(ctx, obj['kind'], `${path}.kind`));
  if (obj['regex'] !== undefined) {
    // Any string, as in ast-grep: `" "` finds nodes holding a space, and `""` every node.
    const source = obj['regex'];
    if (typeof source !== 'string') throw invalid(`${path}.regex`, `expected a string, got ${typeName(source)}.`);
    const regex = toJsRegExp(source, `${path}.regex`);
    parts.push({ type: 'regex', source: regex.source, flags: regex.flags });
  }
  if (obj['nthChild'] !== undefined) parts.push(await compileNthChild(ctx, obj['nthChild'], `${path}.nthChild`));
  if (obj['all'] !== undefined) parts.push({ type: 'all', rules: await compileList(ctx, obj['all'], `${path}.all`) });
  if (obj['any'] !== undefined) parts.push({ type: 'any', rules: await compileList(ctx, obj['any'], `${path}.any`) });
  if (obj['not'] !== undefined) parts.push({ type: 'not', rule: await compileNode(ctx, obj['not'], `${path}.not`, false) });
  if (obj['matches'] !== undefined) {
    const util = obj['matches'];
    if (typeof util !== 'string') {
      throw invalid(`${path}.matches`, 'expected the name of a util (a string); parameterized util calls are not supported.');
    }
    if (!ctx.utilNames.has(util)) {
      const names = [...ctx.utilNames];
      throw invalid(`${path}.matches`, `no util named "${util}" (define it in \`utils\`: { "${util}": { ...rule } })${names.length ? `; utils defined: ${names.join(', ')}` : ''}.`);
    }
    parts.push({ type: 'matches', util });
  }
  for (const key of RELATIONAL) {
    if (obj[key] !== undefined) parts.push(await compileRelation(ctx, key, obj[key], `${path}.${key}`));
  }
  if (parts.length === 0) {
    throw invalid(path, 'the rule object is empty: it needs at least one of pattern, kind, regex, nthChild, inside, has, precedes, follows, all, any, not, matches.');
  }
  return parts.length === 1 ? (parts[0] as RuleNode) : { type: 'all', rules: parts };
}

async function compileList(ctx: Ctx, raw: unknown, path: string): Promise<RuleNode[]> {
  if (!Array.isArray(raw)) throw invalid(path, `expected an array of rule objects, got ${typeName(raw)}.`);
  const out: RuleNode[] = [];
  for (const [i, item] of raw.entries()) out.push(await compileNode(ctx, item, `${path}[${i}]`, false));
  return out;
}

async function compilePatternKey(ctx: Ctx, raw: unknown, path: string): Promise<RuleNode> {
  let pattern: CompiledPattern;
  let strictness: Strictness = 'smart';
  let rootKind: number | undefined;
  if (typeof raw === 'string') {
    pattern = await compileOrExplain(() => compilePattern(ctx.runtime, ctx.spec, raw, ctx.options), path);
  } else {
    const obj = asObject(raw, path, 'a pattern string or { "context": "...", "selector": "kind", "strictness": "..." }');
    for (const key of Object.keys(obj)) {
      if (!['context', 'selector', 'strictness'].includes(key)) {
        throw invalid(`${path}.${key}`, 'unknown key; a pattern object takes `context`, `selector` and `strictness`.');
      }
    }
    const context = asString(obj['context'], `${path}.context`);
    if (obj['strictness'] !== undefined) {
      const s = asString(obj['strictness'], `${path}.strictness`);
      if (!STRICTNESS.includes(s as Strictness)) {
        throw invalid(`${path}.strictness`, `unknown strictness "${s}"; one of ${STRICTNESS.join(', ')}${s === 'template' ? ' (template is not supported)' : ''}.`);
      }
      strictness = s as Strictness;
    }
    if (obj['selector'] === undefined) {
      pattern = await compileOrExplain(() => compilePattern(ctx.runtime, ctx.spec, context, ctx.options), `${path}.context`);
    } else {
      const selector = asString(obj['selector'], `${path}.selector`);
      const id = kindId(ctx, selector, `${path}.selector`);
      rootKind = id;
      pattern = await compileContextual(ctx.runtime, ctx.spec, context, selector, id, ctx.options);
    }
  }
  ctx.contexts.add(`\`${oneLine(pattern.source)}\` read as ${pattern.context}, root ${pattern.root.type === 'meta' ? 'any node' : pattern.root.kind}`);
  for (const name of pattern.singles) ctx.singles.add(name);
  for (const name of pattern.multis) ctx.multis.add(name);
  return { type: 'pattern', pattern, strictness, ...(rootKind !== undefined ? { rootKind } : {}) };
}

async function compileOrExplain(compile: () => Promise<CompiledPattern>, path: string): Promise<CompiledPattern> {
  try {
    return await compile();
  } catch (error) {
    if (error instanceof AstError && (error.code === 'unparseable_pattern' || error.code === 'invalid_pattern')) {
      throw new AstError(error.code, `\`${path}\`: ${error.detail}`, { cause: error });
    }
    throw error;
  }
}

function compileKind(ctx: Ctx, raw: unknown, path: string): RuleNode {
  const kind = asString(raw, path);
  if (/[\s>+~,.:()]/.test(kind.trim())) {
    throw invalid(path, `"${kind}" is a kind selector; only a plain node kind is supported. Express "a > b" with { "kind": "b", "inside": { "kind": "a" } }.`);
  }
  return { type: 'kind', kindId: kindId(ctx, kind.trim(), path), kind: kind.trim() };
}

function kindId(ctx: Ctx, kind: string, path: string): number {
  const id = kind === 'ERROR' ? 65535 : ctx.language.idForNodeType(kind, true);
  if (!id) {
    const close = closeNames(kind, namedKinds(ctx.language));
    throw invalid(
      path,
      `the ${ctx.spec.id} grammar has no node kind "${kind}".${close.length ? ` Close ones: ${close.join(', ')}.` : ''} Use ast_tree to see the kinds of a snippet.`,
    );
  }
  return id;
}

async function compileNthChild(ctx: Ctx, raw: unknown, path: string): Promise<RuleNode> {
  if (typeof raw === 'number' || typeof raw === 'string') return { type: 'nthChild', ...position(raw, path), reverse: false };
  const obj = asObject(raw, path, 'a position (1, "2n+1") or { "position": ..., "ofRule": {...}, "reverse": true }');
  for (const key of Object.keys(obj)) {
    if (!['position', 'ofRule', 'reverse'].includes(key)) throw invalid(`${path}.${key}`, 'unknown key; nthChild takes `position`, `ofRule` and `reverse`.');
  }
  if (obj['position'] === undefined) throw invalid(`${path}.position`, 'missing: the position, such as 1 or "2n+1".');
  const p = obj['position'];
  if (typeof p !== 'number' && typeof p !== 'string') throw invalid(`${path}.position`, `expected a number or an "An+B" string, got ${typeName(p)}.`);
  const reverse = obj['reverse'] ?? false;
  if (typeof reverse !== 'boolean') throw invalid(`${path}.reverse`, `expected true or false, got ${typeName(reverse)}.`);
  const ofRule = obj['ofRule'] === undefined ? undefined : await compileNode(ctx, obj['ofRule'], `${path}.ofRule`, false);
  return { type: 'nthChild', ...position(p, `${path}.position`), reverse, ...(ofRule ? { ofRule } : {}) };
}

/** ast-grep's `An+B` parser (CSS's nth-child syntax), with its errors. */
function position(raw: number | string, path: string): { step: number; offset: number } {
  if (typeof raw === 'number') {
    if (!Number.isInteger(raw) || raw < 0) throw invalid(path, `expected a position of 1 or more, got ${raw}.`);
    return { step: 0, offset: raw };
  }
  const text = raw.replace(/\s+/g, '');
  const m = /^([+-]?)(\d*)(n)?(?:([+-])(\d+))?$/i.exec(text);
  if (!m || text === '' || /^[+-]$/.test(text) || (!m[3] && m[4])) {
    throw invalid(path, `"${raw}" is not a position: write a number (1), or An+B such as "2n+1", "-n+3", "n".`);
  }
  const sign = m[1] === '-' ? -1 : 1;
  if (m[3]) {
    const step = sign * (m[2] ? Number(m[2]) : 1);
    const offset = m[5] ? (m[4] === '-' ? -1 : 1) * Number(m[5]) : 0;
    return { step, offset };
  }
  return { step: 0, offset: sign * Number(m[2]) };
}

async function compileRelation(ctx: Ctx, key: (typeof RELATIONAL)[number], raw: unknown, path: string): Promise<RuleNode> {
  const obj = asObject(raw, path);
  let stopBy: StopBy = 'neighbor';
  const rawStop = obj['stopBy'];
  if (rawStop !== undefined) {
    if (rawStop === 'neighbor' || rawStop === 'end') stopBy = rawStop;
    else if (typeof rawStop === 'string') throw invalid(`${path}.stopBy`, `"${rawStop}" is not a stopBy: use "neighbor" (the default), "end" or a rule object.`);
    else stopBy = await compileNode(ctx, rawStop, `${path}.stopBy`, false);
  }
  let field: string | undefined;
  if (obj['field'] !== undefined) {
    if (key === 'precedes' || key === 'follows') throw invalid(`${path}.field`, '`field` is only supported in `inside` and `has`.');
    field = asString(obj['field'], `${path}.field`);
    if (ctx.language.fieldIdForName(field) === null) {
      const close = closeNames(field, fieldNames(ctx.language));
      throw invalid(`${path}.field`, `the ${ctx.spec.id} grammar has no field "${field}".${close.length ? ` Close ones: ${close.join(', ')}.` : ''}`);
    }
  }
  const rest = Object.fromEntries(Object.entries(obj).filter(([k]) => k !== 'stopBy' && k !== 'field'));
  if (Object.keys(rest).length === 0) throw invalid(path, `\`${key}\` needs a rule: e.g. { "${key}": { "kind": "...", "stopBy": "end" } }.`);
  const rule = await compileNode(ctx, rest, path, true);
  return { type: key, rule, stopBy, ...(field !== undefined ? { field } : {}) };
}

/** ast-grep refuses a util that reaches itself through all/any/not/matches alone: it would never finish. */
function checkCycles(utils: Readonly<Record<string, RuleNode>>, root: RuleNode): void {
  const reach = (node: RuleNode, path: string[]): void => {
    switch (node.type) {
      case 'all':
      case 'any':
        for (const rule of node.rules) reach(rule, path);
        return;
      case 'not':
        reach(node.rule, path);
        return;
      case 'matches': {
        if (path.includes(node.util)) {
          throw invalid(`utils.${node.util}`, `the util matches itself (${[...path.slice(path.indexOf(node.util)), node.util].join(' → ')}) without a relational rule in between, so it would never finish.`);
        }
        const util = utils[node.util];
        if (util) reach(util, [...path, node.util]);
        return;
      }
      default:
        return;
    }
  };
  for (const [name, util] of Object.entries(utils)) reach(util, [name]);
  reach(root, []);
}

function asObject(raw: unknown, path: string, expected = 'a rule object'): Record<string, unknown> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw invalid(path, `expected ${expected}, got ${typeName(raw)}.`);
  }
  return raw as Record<string, unknown>;
}

function asString(raw: unknown, path: string): string {
  if (typeof raw !== 'string') throw invalid(path, `expected a string, got ${typeName(raw)}.`);
  if (!raw.trim()) throw invalid(path, 'is empty.');
  return raw;
}

function typeName(raw: unknown): string {
  if (raw === null) return 'null';
  if (Array.isArray(raw)) return 'an array';
  if (raw === undefined) return 'nothing';
  return typeof raw === 'object' ? 'an object' : `${typeof raw} ${JSON.stringify(raw)}`;
}

/** The error of an invalid rule: the key's path first. */
export function invalid(path: string, detail: string): AstError {
  return new AstError('invalid_rule', `Invalid rule at \`${path}\`: ${detail}`);
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}
