import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { approveAll, createRegistry } from '@agent-tools/core';
import { astTools, type TreeSitterLoader } from '../../src/index.js';
import { findLanguage } from '../../src/languages.js';
import { AST_GREP, type CompiledPattern, type PatternNode, PRODUCT } from '../../src/pattern/pattern-node.js';
import { lostMetavariables } from '../../src/pattern/readings.js';
import { prepareRewrite } from '../../src/rewrite/template.js';
import { isRule } from '../../src/rules/types.js';
import { propose, SAFE, type Safety } from '../../src/staging/propose.js';
import { withTransforms } from '../../src/tools/ast-edit.js';
import { searchWorkspace } from '../../src/workspace/search.js';
import { rewriteAsAstGrep } from './ast-grep-render.js';
import type { PatternOutcome } from './compare.js';
import type { Generated } from './generate.js';
import { oracleRewrite } from './oracle.js';
import { emptyVerdict, type SafetyVerdict, safetyOracle } from './safety-oracle.js';

/** How the rewrite half of the differential went for one language. */
export interface RewriteReport {
  compared: number;
  identical: number;
  /** Files that differ from ast-grep's for a safety reason, by reason (ours keeps text it deletes, adds parentheses it omits...). */
  readonly safety: Map<string, number>;
  /** One example per safety reason: the pattern, the rewrite and the first line where the files differ. */
  readonly safetyExamples: Map<string, string>;
  /** The safety oracle over every rewrite case (see safety-oracle.ts). */
  readonly oracle: SafetyVerdict;
  /** Differences whose reason was confirmed, one line each. */
  readonly explained: string[];
  readonly unexplained: string[];
}

/** Every file under `dir`, as sorted paths relative to it. */
export function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const visit = (d: string): void => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const full = join(d, entry.name);
      if (entry.isDirectory()) visit(full);
      else if (statSync(full).isFile()) out.push(relative(dir, full));
    }
  };
  visit(dir);
  return out.sort();
}

/**
 * Rewrites of the patterns whose match sets agree exactly: ast-grep's `--rewrite --update-all` and our ast_edit +
 * resolve, each on its own copy of the corpus, with the same template; the files must come out identical. The
 * template swaps the first two metavariables a pattern binds (or keeps the pattern as it is), so captured code
 * moves. A file that differs must be explained by one of our deliberate rewrite differences, checked on the
 * file: ast-grep changed a line inside a multi-line string literal (we copy those lines exactly).
 */
export async function compareRewrites(
  loader: TreeSitterLoader,
  dir: string,
  language: string,
  generated: readonly Generated[],
  outcomes: readonly PatternOutcome[],
  limit = Number(process.env['AST_DIFFERENTIAL_REWRITES'] ?? 10),
): Promise<RewriteReport> {
  const agreed = new Set(outcomes.filter((o) => o.mirror && o.extra.length === 0 && o.missing.length === 0 && o.cli > 0).map((o) => o.pattern));
  const report: RewriteReport = { compared: 0, identical: 0, safety: new Map(), safetyExamples: new Map(), oracle: emptyVerdict(), explained: [], unexplained: [] };
  for (const g of generated) {
    if (report.compared >= limit) break;
    // Only patterns whose metavariables are all named: a rewrite can only use what a pattern binds.
    // (`$ZodType` is code to both tools in a pattern, but ast-grep reads `$Z` in a rewrite: not comparable.)
    if (!agreed.has(g.pattern) || /\$_|\$\$\$(?![A-Z])|\$[A-Z_][A-Z0-9_]*[a-z]/.test(g.pattern)) continue;
    // A pattern whose product reading holds fewer metavariables than it writes (C#'s `try $_ $A`: the answer says
    // so first) binds nothing to rewrite with.
    const spec = findLanguage(language);
    const read = spec ? await loader.compile(spec, g.pattern).catch(() => undefined) : undefined;
    if (!read || lostMetavariables(read).length > 0) continue;
    const rewrite = swapped(g);
    // What ast-grep writes, computed from our reading as ast-grep: it must be what the CLI writes.
    const mirror = await searchWorkspace(loader, dir, { pattern: g.pattern, language }, { wantText: true, compile: { style: 'ast-grep', deviations: AST_GREP } });
    // `ast-grep run` skips a file whose text lacks the pattern's longest token (`'` of Ruby's `'$A'` matches
    // `"query"` by kind, but a file without a `'` is never parsed).
    const fixed = fixedString((mirror.pattern as CompiledPattern).root);
    const expected = new Map(
      mirror.results.filter((r) => (r.text ?? '').includes(fixed)).map((r) => [r.file, rewriteAsAstGrep(rewrite, r.matches, r.text ?? '')]),
    );
    const theirs = mkdtempSync(join(tmpdir(), 'ast-rw-cli-'));
    const ours = mkdtempSync(join(tmpdir(), 'ast-rw-ours-'));
    try {
      cpSync(dir, theirs, { recursive: true });
      cpSync(dir, ours, { recursive: true });
      await oracleRewrite(theirs, language, g.pattern, rewrite);
      const registry = createRegistry({ resources: { cwd: ours, treeSitter: loader }, factories: [astTools], approve: approveAll });
      const staged = await registry.call('ast_edit', { pattern: g.pattern, rewrite, language });
      const id = (staged.structured as { editId?: string } | undefined)?.editId;
      if (id) await registry.call('resolve', { edit_id: id, action: 'accept' });
      report.compared++;
      // The safety oracle, on the same proposal computed again (it must be what was written).
      const product = await searchWorkspace(loader, dir, { pattern: g.pattern, language }, { wantText: true });
      if (spec) {
        const proposal = await propose(loader, spec, product.results, prepareRewrite(rewrite, product.pattern));
        for (const f of proposal.files) {
          if (readFileSync(join(ours, f.file), 'utf8') !== f.updated) report.unexplained.push(`${JSON.stringify(g.pattern)}: the proposal computed again differs from what resolve wrote in ${f.file}`);
        }
        const matches = new Map(product.results.map((r) => [r.file, { text: r.text ?? '', matches: r.matches }]));
        await safetyOracle(loader, spec, g.pattern, rewrite, matches, proposal, report.oracle);
      }
      let same = true;
      for (const file of filesUnder(dir)) {
        const a = readFileSync(join(theirs, file), 'utf8');
        const b = readFileSync(join(ours, file), 'utf8');
        const line = `${JSON.stringify(g.pattern)} -> ${JSON.stringify(rewrite)} in ${file}`;
        const original = readFileSync(join(dir, file), 'utf8');
        if ((expected.get(file) ?? original) !== a) {
          report.unexplained.push(`${line}: our reading of ast-grep's rewrite differs from its CLI, ${firstDifference(a, expected.get(file) ?? original)}`);
          same = false;
          continue;
        }
        if (a === b) continue;
        same = false;
        const skipped = a === original && !original.includes(fixed) ? `ast-grep run skips a file without the pattern's longest token ${JSON.stringify(fixed)} (ours rewrites its matches)` : undefined;
        const why =
          skipped ??
          explainRewrite(original, a, b) ??
          (await explainByTokens(loader, ours, dir, file, language, g.pattern, rewrite, a)) ??
          (await explainBySafety(loader, ours, dir, file, language, g.pattern, rewrite, a));
        if (why && SAFETY_REASONS.includes(why)) {
          report.safety.set(why, (report.safety.get(why) ?? 0) + 1);
          if (!report.safetyExamples.has(why)) report.safetyExamples.set(why, `${line}: ${firstDifference(a, b)}`);
        }
        if (why) report.explained.push(`${why}`);
        else report.unexplained.push(`${line}: ${firstDifference(a, b)}`);
      }
      if (same) report.identical++;
    } finally {
      rmSync(theirs, { recursive: true, force: true });
      rmSync(ours, { recursive: true, force: true });
    }
  }
  return report;
}

/**
 * ast-grep's `fixed_string` of a pattern: the longest text of its tokens in UTF-8 bytes, the first of equals;
 * `ast-grep run` does not parse a file whose text lacks it.
 */
function fixedString(node: PatternNode): string {
  if (node.type === 'leaf') return node.text;
  if (node.type === 'meta') return '';
  let longest = '';
  for (const child of node.children) {
    const text = fixedString(child);
    if (Buffer.byteLength(text) > Buffer.byteLength(longest)) longest = text;
  }
  return longest;
}

/** The rewrite template: the pattern with its first two single metavariables swapped. */
function swapped(g: Generated): string {
  const [a, b] = g.singles;
  if (!a || !b) return g.pattern;
  return g.pattern.replace(/\$([A-Z_][A-Z0-9_]*)/g, (whole, name: string) => (name === a ? `$${b}` : name === b ? `$${a}` : whole));
}

/**
 * The reason a rewritten file differs, when it is one of ours: every line where the two outputs differ is, in
 * ast-grep's output, a line of the original file's multi-line strings with its indentation changed (ours keeps
 * it exactly).
 */
function explainRewrite(original: string, theirs: string, ours: string): string | undefined {
  // Same code, other layout: ours indents with the file's own unit (tabs too; ast-grep counts spaces only),
  // keeps a capture's own line breaks, copies lines inside strings exactly and keeps a match's own line break.
  if (theirs.replace(/\s+/g, '') === ours.replace(/\s+/g, '')) {
    const a = theirs.split('\n');
    const b = ours.split('\n');
    const originalLines = new Set(original.split('\n'));
    const strings = a.length === b.length && a.every((l, i) => l === b[i] || (originalLines.has(b[i] as string) && l.trim() === b[i]?.trim()));
    return strings
      ? 'layout: ast-grep re-indents lines of a multi-line string (ours copies them exactly)'
      : "layout: ours indents with the file's own unit, tabs included (ast-grep counts spaces only), and keeps a capture's line breaks";
  }
  return undefined;
}

/**
 * Whether the product with its matching of the tokens after a `$$$` turned off (ast-grep subtracts their count
 * from the run instead) writes what ast-grep wrote, layout aside.
 */
async function explainByTokens(
  loader: TreeSitterLoader,
  scratch: string,
  dir: string,
  file: string,
  language: string,
  pattern: string,
  rewrite: string,
  theirs: string,
): Promise<string | undefined> {
  const spec = findLanguage(language);
  if (!spec) return undefined;
  cpSync(join(dir, file), join(scratch, file));
  const summary = await searchWorkspace(loader, scratch, { pattern, path: file }, { wantText: true, compile: { deviations: { ...PRODUCT, trailingTokens: false } } });
  let proposal: Awaited<ReturnType<typeof propose>>;
  try {
    proposal = await propose(loader, spec, summary.results, prepareRewrite(rewrite, summary.pattern));
  } catch {
    return undefined;
  }
  const written = proposal.files[0]?.updated ?? readFileSync(join(dir, file), 'utf8');
  return written.replace(/\s+/g, '') === theirs.replace(/\s+/g, '')
    ? 'ast-grep drops as many nodes from the end of a $$$ run as the pattern has tokens after it (ours matches the tokens)'
    : undefined;
}

/**
 * The same classification for a rule's rewrite (the rules differential): the product's proposal of the rule with
 * its safeties off must write what ast-grep wrote, layout aside.
 */
export async function explainRuleBySafety(
  loader: TreeSitterLoader,
  dir: string,
  file: string,
  language: string,
  params: Record<string, unknown>,
  rewrite: string,
  theirs: string,
): Promise<string | undefined> {
  const spec = findLanguage(language);
  if (!spec) return undefined;
  const scratch = mkdtempSync(join(tmpdir(), 'ast-rule-safety-'));
  try {
    cpSync(join(dir, file), join(scratch, file));
    const summary = await searchWorkspace(loader, scratch, { ...params, path: file, language } as never, { wantText: true });
    const query = summary.pattern;
    const results = isRule(query) && query.transform.length > 0 ? withTransforms(summary.results, query.transform) : summary.results;
    const template = prepareRewrite(rewrite, query);
    const attempt = async (safety: Safety): Promise<boolean> => {
      const proposal = await propose(loader, spec, results, template, safety);
      const written = proposal.files[0]?.updated ?? readFileSync(join(dir, file), 'utf8');
      return written.replace(/\s+/g, '') === theirs.replace(/\s+/g, '');
    };
    for (const key of Object.keys(SAFE) as (keyof Safety)[]) {
      if (await attempt({ ...SAFE, [key]: false })) return SAFETY_TEXT[key];
    }
    if (await attempt({ keepUnnamed: false, parenthesize: false, commentsTravel: false })) return SAFETY_REASONS[SAFETY_REASONS.length - 1];
    return undefined;
  } catch {
    return undefined;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Why ours differs from ast-grep where a safety of ours is the reason, by switch (the report counts them). */
export const SAFETY_TEXT: Readonly<Record<keyof Safety, string>> = {
  keepUnnamed: 'ours keeps text ast-grep deletes (code the pattern does not name)',
  parenthesize: 'ours adds parentheses ast-grep omits',
  commentsTravel: 'ours keeps comments ast-grep deletes (they travel with the metavariable next to them)',
};
const SAFETY_REASONS: readonly string[] = [...Object.values(SAFETY_TEXT), 'several safeties of ours together (each off alone is not enough; all off reproduce ast-grep)'];

/**
 * Whether the product with one of its rewrite safeties turned off (or all of them, with the tokens after a `$$$`
 * subtracted as ast-grep does when that is needed too) writes what ast-grep wrote, layout aside: the mechanical
 * classification of a safety difference.
 */
async function explainBySafety(
  loader: TreeSitterLoader,
  scratch: string,
  dir: string,
  file: string,
  language: string,
  pattern: string,
  rewrite: string,
  theirs: string,
): Promise<string | undefined> {
  const spec = findLanguage(language);
  if (!spec) return undefined;
  cpSync(join(dir, file), join(scratch, file));
  const attempt = async (safety: Safety, tokens: boolean): Promise<boolean> => {
    const deviations = tokens ? PRODUCT : { ...PRODUCT, trailingTokens: false };
    const summary = await searchWorkspace(loader, scratch, { pattern, path: file }, { wantText: true, compile: { deviations } });
    try {
      const proposal = await propose(loader, spec, summary.results, prepareRewrite(rewrite, summary.pattern), safety);
      const written = proposal.files[0]?.updated ?? readFileSync(join(dir, file), 'utf8');
      return written.replace(/\s+/g, '') === theirs.replace(/\s+/g, '');
    } catch {
      return false;
    }
  };
  for (const key of Object.keys(SAFE) as (keyof Safety)[]) {
    if (await attempt({ ...SAFE, [key]: false }, true)) return SAFETY_TEXT[key];
  }
  const none: Safety = { keepUnnamed: false, parenthesize: false, commentsTravel: false };
  if ((await attempt(none, true)) || (await attempt(none, false))) return SAFETY_REASONS[SAFETY_REASONS.length - 1];
  return undefined;
}

/** The first line where ast-grep's text `a` and ours `b` differ, for a report. */
export function firstDifference(a: string, b: string): string {
  const x = a.split('\n');
  const y = b.split('\n');
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    if (x[i] !== y[i]) return `line ${i + 1}: ast-grep ${JSON.stringify(x[i])}, ours ${JSON.stringify(y[i])}`;
  }
  return 'same lines';
}
