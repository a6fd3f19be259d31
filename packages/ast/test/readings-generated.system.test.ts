import { readFileSync } from 'node:fs';
import { tempDir } from '@agent-tools/test-utils';
import { afterAll, describe, expect, it } from 'vitest';
import { createTreeSitterLoader } from '../src/index.js';
import { findLanguage } from '../src/languages.js';
import { findMatches } from '../src/match/find.js';
import { CORPORA, collectCorpus } from './differential/corpora.js';
import { type Generated, generatePatterns } from './differential/generate.js';

/**
 * Every language, systematically: patterns made from random nodes of real files (fixed seed; the differential's
 * generator) must match the very node they were made from. Where one does not but the node's own text, read as a
 * pattern, does, the grammar read a metavariable's place another way than the code it replaced (a statement, an
 * expression, a type, a declaration): the pattern's other readings (`LanguageSpec.readingProbes`) must cover it.
 * A miss whose node's own text does not match there either is a context the fragment cannot carry alone (counted,
 * not a reading of a metavariable).
 */
const PATTERNS = Number(process.env['AST_READINGS_PATTERNS'] ?? 60);
const FILES = Number(process.env['AST_READINGS_FILES'] ?? 15);
const SEED = Number(process.env['AST_DIFFERENTIAL_SEED'] ?? 20_251);
const ONLY = process.env['AST_DIFFERENTIAL_LANGUAGES']?.split(',');

const loader = createTreeSitterLoader({ workers: 0, cacheBytes: 128 * 1024 * 1024 });
afterAll(() => loader.dispose());

/** Whether a pattern matches exactly the span [start, end) of a file. */
async function matchesAt(language: string, pattern: string, text: string, start: number, end: number): Promise<boolean | undefined> {
  const spec = findLanguage(language);
  if (!spec) return undefined;
  const compiled = await loader.compile(spec, pattern).catch(() => undefined);
  if (!compiled) return undefined;
  const tree = await loader.runtime.parse(spec, text);
  if (!tree) return undefined;
  try {
    return findMatches(tree, text, compiled).some((m) => m.start === start && m.end === end);
  } finally {
    tree.delete();
  }
}

/**
 * A generated pattern whose metavariables each stand for a node of their own: no name repeated (those need the
 * same code), none glued to other characters of a token (`foo$A`, `$A$B`, `'$A'`: one token there, not a
 * metavariable), none inside a string or comment.
 */
function checkable(g: Generated): boolean {
  const metas = [...g.pattern.matchAll(/\$\$?\$?[A-Z_][A-Z0-9_]*|\$\$\$/g)];
  const names = metas.map((m) => m[0].replace(/^\$+/, '')).filter((n) => n !== '_' && n !== '');
  const glued = metas.some((m) => {
    const before = g.pattern[(m.index ?? 0) - 1] ?? ' ';
    const after = g.pattern[(m.index ?? 0) + m[0].length] ?? ' ';
    // (A metavariable right after `)`, `]`, `?`, `>` or `.` stands for a suffix of the node before it: `f$A`.)
    return /[\p{L}\p{N}_'"`$@#:\\)\]?>.]/u.test(before) || /[\p{L}\p{N}_'"`$\\]/u.test(after);
  });
  const textual = (g.replaced ?? []).some((r) => /string|char|escape|content|comment|heredoc|regex|word|redirect|expansion|variable_name/.test(r.kind));
  return g.from !== undefined && new Set(names).size === names.length && !glued && !textual;
}

/** A generated pattern with each metavariable given back the code it replaced, in order; `undefined` if unsure. */
function restored(g: Generated): string | undefined {
  const replaced = g.replaced ?? [];
  const metas = [...g.pattern.matchAll(/\$\$\$[A-Z0-9_]*|\$[A-Z_][A-Z0-9_]*/g)];
  if (metas.length !== replaced.length || metas.some((m, i) => m[0] !== replaced[i]?.meta)) return undefined;
  let out = '';
  let at = 0;
  for (const [i, m] of metas.entries()) {
    out += g.pattern.slice(at, m.index) + (replaced[i]?.text ?? '');
    at = (m.index ?? 0) + m[0].length;
  }
  return out + g.pattern.slice(at);
}

/**
 * Why a metavariable stands where no node of its own stands, if it does: it took a node that begins with a token
 * of the construct around it (Kotlin's `.toBoolean` suffix, Haskell's `= expr`: the `.` or `=` must be written),
 * or a `$$$` run took siblings of different roles (Scala's infix operator and its right operand, Haskell's
 * function name and its arguments, Solidity's visibility and name): a run matches siblings of one list, in
 * ast-grep too, so the pattern reads the run as a list of another construct.
 */
async function notAList(spec: NonNullable<ReturnType<typeof findLanguage>>, text: string, g: Generated): Promise<string | undefined> {
  const punctuated = (g.replaced ?? []).find((r) => /^(?:[.=|:;,]|->|=>)/.test(r.text));
  if (punctuated) return `${punctuated.meta} took \`${punctuated.text.slice(0, 20)}\`, which begins with a token of the construct`;
  const tree = await loader.runtime.parse(spec, text);
  if (!tree) return undefined;
  try {
    for (const r of g.replaced ?? []) {
      if (!r.meta.startsWith('$$$') || r.start === undefined || r.end === undefined) continue;
      let parent = tree.rootNode.descendantForIndex(r.start, Math.max(r.start, r.end - 1));
      while (parent && !(parent.startIndex <= r.start && parent.endIndex >= r.end && !(parent.startIndex === r.start && parent.endIndex === r.end))) parent = parent.parent;
      if (!parent) continue;
      const roles = new Set<string>();
      let count = 0;
      for (let i = 0; i < parent.childCount; i++) {
        const child = parent.child(i);
        if (!child?.isNamed || child.startIndex < r.start || child.endIndex > r.end) continue;
        count++;
        roles.add(parent.fieldNameForChild(i) ?? 'no field');
      }
      if (count > 1 && roles.size > 1) return `${r.meta} took children of different roles (${[...roles].join(', ')})`;
    }
  } finally {
    tree.delete();
  }
  return undefined;
}

/** The pattern with `$NAME` written `$_` and `$$$NAME` written `$$$`; none when it has no named metavariable. */
function anonymous(g: Generated): Generated[] {
  const rename = (meta: string): string => (meta.startsWith('$$$') ? '$$$' : /^\$[A-Z]/.test(meta) ? '$_' : meta);
  const pattern = g.pattern.replace(/\$\$\$[A-Z][A-Z0-9_]*|\$[A-Z][A-Z0-9_]*/g, rename);
  if (pattern === g.pattern) return [];
  return [{ ...g, pattern, singles: [], multis: [], replaced: (g.replaced ?? []).map((r) => ({ ...r, meta: rename(r.meta) })) }];
}

for (const corpus of CORPORA) {
  if (ONLY && !ONLY.includes(corpus.language)) continue;
  describe(`readings of generated patterns: ${corpus.language} (${corpus.from})`, () => {
    const dir = tempDir();
    afterAll(() => dir.remove());

    it(`each of ${PATTERNS} generated patterns matches the node it was made from`, { timeout: 600_000 }, async () => {
      const spec = findLanguage(corpus.language);
      if (!spec) throw new Error(`no language ${corpus.language}`);
      const files = collectCorpus(corpus, dir.path, FILES);
      expect(files.length, `the ${corpus.language} corpus is installed`).toBeGreaterThan(0);
      const texts = files.map((file) => ({ name: file.slice(dir.path.length + 1), text: readFileSync(file, 'utf8') }));
      const byName = new Map(texts.map((t) => [t.name, t.text]));
      // Each pattern as generated, and again with every metavariable anonymous (`$_`, `$$$`): those are probed too.
      const generated = (await generatePatterns(loader.runtime, spec, texts, PATTERNS, SEED)).flatMap((g) => [g, ...anonymous(g)]).filter(checkable);
      let matched = 0;
      let unparseable = 0;
      const contextual: string[] = [];
      const readings: string[] = [];
      const explained: string[] = [];
      const shapes: string[] = [];
      for (const g of generated) {
        const from = g.from as NonNullable<Generated['from']>;
        const text = byName.get(from.file) as string;
        const hit = await matchesAt(corpus.language, g.pattern, text, from.start, from.end);
        if (hit === undefined) unparseable++;
        else if (hit) matched++;
        else {
          // The pattern with its metavariables given back the code they replaced (the generator's layout kept): a
          // miss there too is the fragment's context or layout (a block scalar de-indented), not a reading.
          const own = await matchesAt(corpus.language, restored(g) ?? text.slice(from.start, from.end), text, from.start, from.end);
          const line = `${JSON.stringify(g.pattern.slice(0, 120))} (${g.origin}, ${g.kind}; ${(g.replaced ?? []).map((r) => `${r.meta}=${JSON.stringify(r.text.slice(0, 30))}:${r.kind}`).join(' ')})`;
          // Every metavariable counts, `$_` and `$$$` runs too: a miss at one is matched by another reading, or
          // the answer's first line says how the pattern was read and what to write instead.
          const caveat = (await loader.compile(spec, g.pattern)).caveat;
          const role = !own || !(g.replaced ?? []).length || caveat ? undefined : await notAList(spec, text, g);
          if (!own || !(g.replaced ?? []).length) contextual.push(line);
          else if (caveat) explained.push(`${line}: ${caveat.slice(0, 100)}`);
          else if (role) shapes.push(`${line}: ${role}`);
          else readings.push(line);
        }
      }
      console.log(
        `readings ${corpus.language}: ${generated.length} checkable patterns (${generated.filter((g) => /\$_|\$\$\$/.test(g.pattern)).length} with $_ or $$$); ${matched} match their node; ${unparseable} unparseable; ` +
          `${contextual.length} miss where the node's own text misses too (context, or no metavariable); ` +
          `${explained.length} miss, the answer saying first how the pattern is read; ${shapes.length} miss where a metavariable took a token of the construct or a $$$ run took children of different roles; ` +
          `${readings.length} miss at a metavariable's reading` +
          [...readings, ...explained.map((c) => `explained: ${c}`), ...shapes.map((c) => `not a node's place: ${c}`), ...contextual.map((c) => `context: ${c}`)].map((r) => `\n  - ${r}`).join(''),
      );
      expect(readings).toEqual([]);
    });
  });
}
