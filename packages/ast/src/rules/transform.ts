import { AstError } from '../errors.js';
import { toJsRegExp } from './regex.js';
import type { Separator, StringCase, Transformation } from './types.js';

const CASES: readonly StringCase[] = ['lowerCase', 'upperCase', 'capitalize', 'camelCase', 'snakeCase', 'kebabCase', 'pascalCase'];
const SEPARATORS: readonly Separator[] = ['caseChange', 'dash', 'dot', 'slash', 'space', 'underscore'];

function invalid(path: string, detail: string): AstError {
  return new AstError('invalid_rule', `Invalid transform at \`${path}\`: ${detail}`);
}

/**
 * Checks ast-grep's `transform` (object form: `{ NEW: { substring: { source: "$A", startChar: 1 } } }`, also
 * `replace` and `convert`) and orders it so a transformation whose source is another one's result comes after it.
 */
export function compileTransform(raw: unknown, singles: ReadonlySet<string>, multis: ReadonlySet<string>): [string, Transformation][] {
  if (raw === undefined) return [];
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw invalid('transform', 'expected an object mapping new metavariable names to transformations.');
  const parsed = new Map<string, Transformation>();
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    const name = key.replace(/^\$+/, '');
    const path = `transform.${key}`;
    if (!/^[A-Z_][A-Z0-9_]*$/.test(name)) throw invalid(path, 'a transformation is keyed by the new metavariable name, such as NEW.');
    if (singles.has(name) || multis.has(name)) throw invalid(path, `$${name} is already bound by the rule; pick a new name.`);
    if (typeof value === 'string') throw invalid(path, 'the string form of a transformation is not supported; write the object form, e.g. { "substring": { "source": "$A", "startChar": 1 } }.');
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalid(path, 'expected an object with one of substring, replace, convert.');
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length !== 1) throw invalid(path, 'expected exactly one of substring, replace, convert.');
    const [kind, spec] = entries[0] as [string, unknown];
    if (kind === 'rewrite') throw invalid(`${path}.rewrite`, 'the `rewrite` transformation (rewriters) is not supported; only substring, replace and convert are.');
    if (!['substring', 'replace', 'convert'].includes(kind)) throw invalid(`${path}.${kind}`, 'unknown transformation; one of substring, replace, convert.');
    if (typeof spec !== 'object' || spec === null || Array.isArray(spec)) throw invalid(`${path}.${kind}`, 'expected an object with a `source` such as "$A".');
    const s = spec as Record<string, unknown>;
    const allowed = { substring: ['source', 'startChar', 'endChar'], replace: ['source', 'replace', 'by'], convert: ['source', 'toCase', 'separatedBy'] }[kind] as string[];
    for (const k of Object.keys(s)) if (!allowed.includes(k)) throw invalid(`${path}.${kind}.${k}`, `unknown key; ${kind} takes ${allowed.join(', ')}.`);
    const source = typeof s['source'] === 'string' ? /^\$(?:\$\$)?([A-Z_][A-Z0-9_]*)$/.exec(s['source'].trim())?.[1] : undefined;
    if (!source) throw invalid(`${path}.${kind}.source`, 'expected a metavariable such as "$A" or "$$$ARGS".');
    if (kind === 'substring') {
      for (const k of ['startChar', 'endChar']) {
        if (s[k] !== undefined && !Number.isInteger(s[k])) throw invalid(`${path}.substring.${k}`, 'expected an integer (negative counts from the end).');
      }
      parsed.set(name, {
        type: 'substring',
        source,
        ...(s['startChar'] !== undefined ? { startChar: s['startChar'] as number } : {}),
        ...(s['endChar'] !== undefined ? { endChar: s['endChar'] as number } : {}),
      });
    } else if (kind === 'replace') {
      if (typeof s['replace'] !== 'string') throw invalid(`${path}.replace.replace`, 'expected a regular expression (a string).');
      if (typeof s['by'] !== 'string') throw invalid(`${path}.replace.by`, 'expected the replacement text (a string).');
      const regex = toJsRegExp(s['replace'], `${path}.replace.replace`, true);
      parsed.set(name, { type: 'replace', source, replace: regex.source, flags: regex.flags, by: rustReplacement(s['by']) });
    } else {
      const toCase = s['toCase'];
      if (typeof toCase !== 'string' || !CASES.includes(toCase as StringCase)) throw invalid(`${path}.convert.toCase`, `expected one of ${CASES.join(', ')}.`);
      const seps = s['separatedBy'];
      if (seps !== undefined && (!Array.isArray(seps) || seps.some((x) => !SEPARATORS.includes(x as Separator)))) {
        throw invalid(`${path}.convert.separatedBy`, `expected an array of ${SEPARATORS.join(', ')}.`);
      }
      parsed.set(name, { type: 'convert', source, toCase: toCase as StringCase, ...(seps ? { separatedBy: seps as Separator[] } : {}) });
    }
  }
  const ordered: [string, Transformation][] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (name: string, trail: string[]): void => {
    const t = parsed.get(name);
    if (!t || state.get(name) === 'done') return;
    if (state.get(name) === 'visiting') throw invalid(`transform.${name}`, `cyclic: ${[...trail, name].join(' → ')}.`);
    state.set(name, 'visiting');
    visit(t.source, [...trail, name]);
    state.set(name, 'done');
    ordered.push([name, t]);
  };
  for (const name of parsed.keys()) visit(name, []);
  for (const [name, t] of ordered) {
    if (!singles.has(t.source) && !multis.has(t.source) && !parsed.has(t.source)) {
      throw invalid(`transform.${name}`, `its source $${t.source} is not bound by the rule.`);
    }
  }
  return ordered;
}

/** Rust's replacement syntax (`$1`, `${name}`, `$name`) in JavaScript's (`$1`, `$<name>`). */
function rustReplacement(by: string): string {
  return by.replace(/\$(\$)|\$\{([^}]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g, (_all, dollar, braced, bare) => {
    if (dollar) return '$$';
    const name = (braced ?? bare) as string;
    return /^\d+$/.test(name) ? `$${name}` : `$<${name}>`;
  });
}

/** Computes every transformation of a match from the captured texts; an unbound source gives an empty text. */
export function applyTransforms(transform: readonly (readonly [string, Transformation])[], texts: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  const textOf = (name: string): string | undefined => out[name] ?? texts[name];
  for (const [name, t] of transform) {
    const text = textOf(t.source);
    if (text === undefined) {
      out[name] = '';
      continue;
    }
    switch (t.type) {
      case 'substring': {
        const chars = [...text];
        const len = chars.length;
        const resolve = (c: number | undefined, dft: number): number => {
          const v = c ?? dft;
          if (v >= len) return len;
          if (v >= 0) return v;
          return Math.max(len + v, 0);
        };
        const start = resolve(t.startChar, 0);
        const end = resolve(t.endChar, len);
        out[name] = start > end || start >= len ? '' : chars.slice(start, end).join('');
        break;
      }
      case 'replace':
        out[name] = text.replace(new RegExp(t.replace, t.flags), t.by);
        break;
      case 'convert':
        out[name] = convertCase(text, t.toCase, t.separatedBy);
        break;
    }
  }
  return out;
}

function capitalize(word: string): string {
  const [first = '', ...rest] = [...word];
  return first.toUpperCase() + rest.join('');
}

/** ast-grep's `convert`: split into words (by the separators, or by all of them and case changes), then join. */
export function convertCase(text: string, toCase: StringCase, separatedBy?: readonly Separator[]): string {
  switch (toCase) {
    case 'lowerCase':
      return text.toLowerCase();
    case 'upperCase':
      return text.toUpperCase();
    case 'capitalize':
      return capitalize(text);
  }
  const words = split(text, separatedBy);
  switch (toCase) {
    case 'camelCase':
      return words.map((w, i) => (i === 0 ? w.toLowerCase() : capitalize(w))).join('');
    case 'snakeCase':
      return words.map((w) => w.toLowerCase()).join('_');
    case 'kebabCase':
      return words.map((w) => w.toLowerCase()).join('-');
    default:
      return words.map(capitalize).join('');
  }
}

/** ast-grep's `Delimiter` state machine, character for character. */
function split(text: string, seps: readonly Separator[] | undefined): string[] {
  const chars = [...text];
  const delimiters = seps ? seps.flatMap((s) => ({ dash: ['-'], dot: ['.'], slash: ['/'], space: [' '], underscore: ['_'], caseChange: [] })[s]) : ['-', '.', '/', ' ', '_'];
  type State = { k: 'lower' } | { k: 'oneUpper' } | { k: 'multiUpper'; last: string } | { k: 'ignore' };
  let state: State = !seps || seps.includes('caseChange') ? { k: 'lower' } : { k: 'ignore' };
  const isUpper = (c: string): boolean => c !== c.toLowerCase() && c === c.toUpperCase();
  const isLower = (c: string): boolean => c !== c.toUpperCase() && c === c.toLowerCase();
  let left = 0;
  let right = 0;
  const out: string[] = [];
  const emit = (a: number, b: number): void => {
    if (a !== b) out.push(chars.slice(a, b).join(''));
  };
  for (const c of chars) {
    if (delimiters.includes(c)) {
      emit(left, right);
      left = right + 1;
      right = left;
      if (state.k !== 'ignore') state = { k: 'lower' };
      continue;
    }
    if (state.k === 'lower' && isUpper(c)) {
      emit(left, right);
      left = right;
      right = left + 1;
      state = { k: 'oneUpper' };
      continue;
    }
    if (state.k === 'multiUpper' && isLower(c)) {
      const newLeft = right - 1;
      emit(left, newLeft);
      left = newLeft;
      right += 1;
      state = { k: 'lower' };
      continue;
    }
    right += 1;
    if (state.k === 'ignore') continue;
    if (isLower(c)) state = { k: 'lower' };
    else if (state.k === 'lower') state = { k: 'oneUpper' };
    else state = { k: 'multiUpper', last: c };
  }
  if (left < right && right <= chars.length) emit(left, right);
  return out;
}
