import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AstError, type TreeSitterLoader } from '../../src/index.js';
import { findLanguage } from '../../src/languages.js';
import type { CompileOptions } from '../../src/pattern/compile.js';
import { preprocessPattern } from '../../src/pattern/metavars.js';
import { AST_GREP, type Deviations, PRODUCT } from '../../src/pattern/pattern-node.js';
import { type SearchParams, searchWorkspace } from '../../src/workspace/search.js';
import { type Location, oracleErrors, oracleShape, oracleTree } from './oracle.js';
import { differingRows, printTree, readTree, type TreeLine } from './trees.js';

/** Why a match may be found by one side only: one of our deviations, or the context ladder. */
export type Reason = keyof Deviations | 'ladder';

/** The reasons, as the report states them. */
export const REASONS: Readonly<Record<Reason, string>> = {
  comments: 'a comment between two nodes does not block a match (ast-grep allows one only in front of a leaf or a metavariable)',
  backtrack: '$$$ backtracks (ast-grep ends a run at the first node the next pattern node fits)',
  emptyTrailing: 'a $$$ left at the end matches nothing when the children run out (ast-grep requires one more node)',
  ownText: "text outside a node's children must match too (ast-grep compares the children only)",
  trailingTokens: 'tokens after a $$$ are matched, not subtracted as a count',
  readings: 'a pattern the grammar reads two ways at a metavariable matches both readings (sizeof($T): an expression or a type)',
  wildcards: "`$_` is a wildcard where the expando is `_` (ast-grep reads CSS's and Nix's `$_` as the name `__`)",
  ladder: "the context ladder reads the pattern as a different node than ast-grep's parse of the fragment alone",
};

const DEVIATIONS = Object.keys(PRODUCT) as (keyof Deviations)[];

/** The outcome of one pattern. */
export interface PatternOutcome {
  readonly pattern: string;
  readonly origin: string;
  readonly cli: number;
  readonly ours: number;
  /** ast-grep's reading with every deviation off finds exactly what the CLI finds. */
  readonly mirror: boolean;
  readonly mirrorDiff?: { readonly onlyMirror: Location[]; readonly onlyCli: Location[] };
  /** Matches only we find / only ast-grep finds, each with the reasons that were confirmed for it. */
  readonly extra: readonly { readonly location: Location; readonly reasons: readonly Reason[] }[];
  readonly missing: readonly { readonly location: Location; readonly reasons: readonly Reason[] }[];
  /** We refuse the pattern as unparseable. */
  readonly unparseable?: string;
}

/** Where our search finds a pattern, as UTF-8 byte ranges; `undefined` when the pattern does not compile. */
export async function ourLocations(
  loader: TreeSitterLoader,
  dir: string,
  language: string,
  pattern: string | Omit<SearchParams, 'language' | 'path'>,
  compile: CompileOptions,
): Promise<Set<Location> | undefined> {
  let summary: Awaited<ReturnType<typeof searchWorkspace>>;
  try {
    summary = await searchWorkspace(loader, dir, { ...(typeof pattern === 'string' ? { pattern } : pattern), language }, { compile });
  } catch (error) {
    if (error instanceof AstError && (error.code === 'unparseable_pattern' || error.code === 'invalid_pattern' || error.code === 'invalid_rule')) return undefined;
    throw error;
  }
  const out = new Set<Location>();
  for (const result of summary.results) {
    const text = readFileSync(result.absolute, 'utf8');
    // UTF-16 offsets to UTF-8 ones; the same numbers in an ASCII file (most), which saves a slice per match.
    const ascii = Buffer.byteLength(text) === text.length;
    for (const match of result.matches) {
      const start = ascii ? match.start : Buffer.byteLength(text.slice(0, match.start));
      // (A match's record keeps only the head of a long text: the length comes from the file.)
      out.add(`${result.file}@${start}-${start + (ascii ? match.end - match.start : Buffer.byteLength(text.slice(match.start, match.end)))}`);
    }
  }
  return out;
}

/**
 * Compares one pattern: the product against the CLI, every difference attributed mechanically. A match only we
 * find is explained by a reason when turning that deviation off (or compiling as ast-grep does) removes it; a
 * match only ast-grep finds, when doing so brings it back. Our own reading as ast-grep (every deviation off)
 * must find exactly what the CLI finds.
 */
export async function comparePattern(
  loader: TreeSitterLoader,
  dir: string,
  language: string,
  generated: { readonly pattern: string; readonly origin: string; readonly params?: Omit<SearchParams, 'language' | 'path'> },
  cli: readonly Location[],
): Promise<PatternOutcome> {
  const { pattern, origin } = generated;
  const locate = (compile: CompileOptions) => ourLocations(loader, dir, language, generated.params ?? pattern, compile);
  const theirs = new Set(cli);
  const mirror = (await locate({ style: 'ast-grep', deviations: AST_GREP })) ?? new Set<Location>();
  const onlyMirror = [...mirror].filter((l) => !theirs.has(l));
  const onlyCli = cli.filter((l) => !mirror.has(l));
  const product = await locate({ deviations: PRODUCT });
  const ours = product ?? new Set<Location>();
  const extra = [...ours].filter((l) => !theirs.has(l));
  const missing = cli.filter((l) => !ours.has(l));
  const base = {
    pattern,
    origin,
    cli: cli.length,
    ours: ours.size,
    mirror: onlyMirror.length === 0 && onlyCli.length === 0,
    ...(onlyMirror.length || onlyCli.length ? { mirrorDiff: { onlyMirror, onlyCli } } : {}),
    ...(product ? {} : { unparseable: 'unparseable' }),
  };
  if (extra.length === 0 && missing.length === 0) return { ...base, extra: [], missing: [] };

  // One configuration per reason: the product with that one deviation off, and the product compiled as ast-grep.
  const variants = new Map<Reason, Set<Location>>();
  for (const d of DEVIATIONS) {
    const deviations: Deviations = { ...PRODUCT, [d]: false };
    variants.set(d, (await locate({ deviations })) ?? new Set());
  }
  variants.set('ladder', (await locate({ style: 'ast-grep', deviations: PRODUCT })) ?? new Set());
  const explain = (location: Location, present: boolean): Reason[] => {
    const reasons = [...variants].filter(([, found]) => found.has(location) === present).map(([reason]) => reason);
    // No single reason: several act together; every deviation off (the mirror) must then decide it.
    // (`wildcards` acts only where the expando is `_`.)
    const underscore = findLanguage(language)?.expando === '_';
    if (reasons.length === 0 && mirror.has(location) === present) return [...variants.keys()].filter((r) => r !== 'trailingTokens' && (underscore || r !== 'wildcards'));
    return reasons;
  };
  return {
    ...base,
    extra: extra.map((location) => ({ location, reasons: explain(location, false) })),
    missing: missing.map((location) => ({ location, reasons: explain(location, true) })),
  };
}

/**
 * Whether ast-grep's own build reads a pattern into a tree with a syntax error (an ERROR or MISSING node; its
 * `--debug-query=cst` of the text it parses, its expando in place of `$`): such a pattern finds nothing there,
 * where we refuse it as unparseable and say why.
 */
export async function cliReadsWithError(language: string, pattern: string): Promise<boolean> {
  const spec = findLanguage(language);
  if (!spec) return false;
  const text = preprocessPattern(pattern, { ...spec, quoteMetavariables: false, expando: spec.astGrepExpando ?? spec.expando });
  return (await oracleTree(language, text)).some((line) => line.kind === 'ERROR' || line.kind.startsWith('MISSING'));
}

/** Largest text handed to ast-grep as a pattern (one command-line argument holds at most 128 KiB). */
const MAX_TREE_TEXT = 120 * 1024;

/**
 * Whether a disagreement of our ast-grep reading with the CLI comes from the grammar build, checked
 * mechanically against the CLI itself: the pattern parses into another tree (`--debug-query=cst` against ours),
 * one of the files involved has its syntax errors elsewhere (ast-grep's `kind: ERROR` against ours), or the file
 * parses into another tree where the match is (its `--debug-query=cst` of the whole file against ours: the
 * innermost nodes either tree has alone lie on the match's lines).
 */
export async function grammarDiffers(
  loader: TreeSitterLoader,
  dir: string,
  language: string,
  pattern: string,
  locations: readonly Location[],
): Promise<string | undefined> {
  const spec = findLanguage(language);
  if (!spec) return undefined;
  const parser = await loader.runtime.parser(spec);
  // The text ast-grep parses: its expando in place of `$` (ast-grep leaves an expando already there alone, so
  // asking it for the tree of this text shows the tree it matches with).
  const astGrepSpec = { ...spec, quoteMetavariables: false, expando: spec.astGrepExpando ?? spec.expando };
  const ours = (text: string): TreeLine[] => {
    const tree = loader.runtime.parseWith(parser, text);
    if (!tree) return [];
    try {
      return readTree(printTree(tree, text));
    } finally {
      tree.delete();
    }
  };
  const text = preprocessPattern(pattern, astGrepSpec);
  // The root's kind is left out: it never takes part in a match (Dart's grammars call it `program` and
  // `source_file`).
  const theirs = (await oracleShape(language, text)).slice(1);
  const shape = ours(text).map((line) => `${line.depth} ${line.kind}`).slice(1);
  if (theirs.length > 0 && theirs.join('\n') !== shape.join('\n')) return "the pattern parses into another tree in ast-grep's grammar build";
  const files = [...new Set(locations.map((l) => l.slice(0, l.lastIndexOf('@'))))];
  const cliErrors = await oracleErrors(dir, language, files);
  for (const file of files) {
    const text = readFileSync(join(dir, file), 'utf8');
    const fileTree = loader.runtime.parseWith(parser, text);
    if (!fileTree) continue;
    const mine = new Set<Location>();
    for (const node of fileTree.rootNode.descendantsOfType('ERROR')) {
      if (!node) continue;
      const start = Buffer.byteLength(text.slice(0, node.startIndex));
      mine.add(`${file}@${start}-${start + Buffer.byteLength(text.slice(node.startIndex, node.endIndex))}`);
    }
    fileTree.delete();
    const theirsHere = [...cliErrors].filter((l) => l.startsWith(`${file}@`));
    if (theirsHere.length !== mine.size || theirsHere.some((l) => !mine.has(l))) return `${file} has its syntax errors elsewhere in ast-grep's grammar build`;
  }
  for (const file of files) {
    const text = readFileSync(join(dir, file), 'utf8');
    // Only a file ast-grep reads as it is (no `$X` it would take for a metavariable), small enough to pass.
    if (preprocessPattern(text, astGrepSpec) !== text || Buffer.byteLength(text) > MAX_TREE_TEXT) continue;
    const rows = differingRows(await oracleTree(language, text), ours(text));
    const bytes = Buffer.from(text);
    const rowOf = (offset: number): number => bytes.subarray(0, offset).toString('utf8').split('\n').length - 1;
    for (const location of locations.filter((l) => l.startsWith(`${file}@`))) {
      const [start, end] = location.slice(location.lastIndexOf('@') + 1).split('-').map(Number) as [number, number];
      const [first, last] = [rowOf(start), rowOf(end)];
      const at = rows.find((r) => r.startRow <= last && r.endRow >= first);
      if (at) return `${file} parses into another tree in ast-grep's grammar build at line ${at.startRow + 1}`;
    }
  }
  return undefined;
}

/**
 * The outcomes of one language's run, tallied for its report: those that agreed exactly, each confirmed reason with
 * how many patterns (or rules) it explains and an example, and every difference no reason explains.
 */
export function tallyDifferences(
  outcomes: readonly PatternOutcome[],
  show: (pattern: string) => string,
  exampleLength: number,
): { agreed: PatternOutcome[]; byReason: Map<string, { count: number; example: string }>; unexplained: string[] } {
  const agreed = outcomes.filter((o) => o.extra.length === 0 && o.missing.length === 0);
  const byReason = new Map<string, { count: number; example: string }>();
  const unexplained: string[] = [];
  for (const o of outcomes) {
    const reasons = new Set<string>();
    for (const d of [...o.extra.map((e) => ({ ...e, side: 'extra' })), ...o.missing.map((m) => ({ ...m, side: 'missing' }))]) {
      if (d.reasons.length === 0) unexplained.push(`${d.side} ${d.location} for ${show(o.pattern)} (${o.origin})`);
      reasons.add(`${d.side === 'extra' ? 'only ours' : 'only ast-grep'}: ${d.reasons.map((r) => REASONS[r]).join(' + ')}`);
    }
    for (const reason of reasons) {
      const entry = byReason.get(reason) ?? { count: 0, example: show(o.pattern).slice(0, exampleLength) };
      entry.count++;
      byReason.set(reason, entry);
    }
  }
  return { agreed, byReason, unexplained };
}
