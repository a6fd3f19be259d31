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

/**
 * Misses at a named single metavariable still open, by language (the pattern's start), with why: none in Python,
 * Rust, JavaScript, TypeScript, TSX, Java, C++, Ruby, Swift, Kotlin, Lua, PHP, JSON, Elixir, Scala or Solidity. A
 * new one fails the test. Misses where only `$$$` runs or `$_` stand for the other reading are counted (probes
 * replace named single metavariables).
 */
const OPEN: Readonly<Record<string, readonly string[]>> = {
  // A block of metavariables standing for statements: `$A\n$B` reads as one declaration `A B;`.
  c: ['{\n\t$A\n\t$B\n\n\t$C'],
  // A catch clause and an accessor list as metavariables next to `$_`/`$$$`: read only by the lenient rung, rooted elsewhere.
  csharp: ['try\r\n$_\r\n\r\n$A', 'public $$$ ApplicationDirectory'],
  // The body `$B` makes the fragment parse leniently at top level, rooted at the file.
  go: ['func $A Write(p []byte) (int, error) $B'],
  // Juxtaposition: `$A $B` is an application of metavariables, not a type or a pattern; no probe token separates them.
  haskell: ['$A $B show name', 'import $A', 'stringLetter    $A', '$_ $A\n    $B', 'ListT $A $B [a]', 'prefixP    $A', '$A    $B'],
  nix: ['{\n$A\n}', '$_ $A', '$A $_'],
  // Documents: a metavariable as a property name, a selector, a tag name, a table row or a heading marker.
  css: ['$_: $A;', '.ui-datepicker $A', '.ui-datepicker select.ui-datepicker-month'],
  hcl: ['$A\n$_ = "boop"', '$A = "bar"\n$_'],
  html: ['<$A>\n<pre>', '$A\n$B\n$C', '<pre>\n$A\n$B'],
  markdown: ['$A $$$', '| Prop ', '#### CameraPluginPermissions'],
};

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
      const generated = (await generatePatterns(loader.runtime, spec, texts, PATTERNS, SEED)).filter(checkable);
      let matched = 0;
      let unparseable = 0;
      const contextual: string[] = [];
      const readings: string[] = [];
      const notProbed: string[] = [];
      const open: string[] = [];
      for (const g of generated) {
        const from = g.from as NonNullable<Generated['from']>;
        const text = byName.get(from.file) as string;
        const hit = await matchesAt(corpus.language, g.pattern, text, from.start, from.end);
        if (hit === undefined) unparseable++;
        else if (hit) matched++;
        else {
          const own = await matchesAt(corpus.language, text.slice(from.start, from.end), text, from.start, from.end);
          const line = `${JSON.stringify(g.pattern.slice(0, 120))} (${g.origin}, ${g.kind}; ${(g.replaced ?? []).map((r) => `${r.meta}=${JSON.stringify(r.text.slice(0, 30))}:${r.kind}`).join(' ')})`;
          const named = (g.replaced ?? []).some((r) => /^\$[A-Z]/.test(r.meta));
          if (!own || !(g.replaced ?? []).length) contextual.push(line);
          else if (!named) notProbed.push(line);
          else if ((OPEN[corpus.language] ?? []).some((prefix) => JSON.stringify(g.pattern).startsWith(JSON.stringify(prefix).slice(0, -1)))) open.push(line);
          else readings.push(line);
        }
      }
      console.log(
        `readings ${corpus.language}: ${generated.length} checkable patterns; ${matched} match their node; ${unparseable} unparseable; ` +
          `${contextual.length} miss where the node's own text misses too (context, or no metavariable); ${notProbed.length} miss at a $$$ run or $_ (not probed); ` +
          `${open.length} open (listed); ${readings.length} miss at a named metavariable's reading` +
          [...readings, ...open.map((c) => `open: ${c}`), ...notProbed.map((c) => `not probed: ${c}`), ...contextual.map((c) => `context: ${c}`)].map((r) => `\n  - ${r}`).join(''),
      );
      expect(readings).toEqual([]);
    });
  });
}
