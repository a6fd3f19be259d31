import type { LanguageId } from '../languages.js';
import type { MetaVar } from './metavars.js';

/**
 * One node of a compiled pattern: plain data, so a compiled pattern can be posted to a worker thread.
 * Kind ids are the grammar's public symbol ids (`Node.typeId`).
 */
export type PatternNode =
  | { readonly type: 'meta'; readonly meta: MetaVar }
  | { readonly type: 'leaf'; readonly kindId: number; readonly kind: string; readonly named: boolean; readonly text: string }
  | {
      readonly type: 'inner';
      readonly kindId: number;
      readonly kind: string;
      readonly children: readonly PatternNode[];
      /** Text of the node outside its children where it is more than whitespace (see `ownText`). */
      readonly ownText?: string;
    };

/**
 * Where our matcher deliberately differs from ast-grep. All true is the product; each can be turned off, and with
 * all off the matcher reproduces ast-grep 0.51 (`smart` strictness) exactly, which is how the differential test
 * proves the reason of every match only one side finds.
 */
export interface Deviations {
  /** A comment between two nodes never blocks a match (ast-grep skips one only before a leaf or a metavariable). */
  readonly comments: boolean;
  /** `$$$` backtracks: `$F($$$A, $LAST)` binds the last argument (ast-grep's `$$$` stops at the first fit). */
  readonly backtrack: boolean;
  /** A `$$$` left at the end when the candidate's children run out matches nothing (`return $$$`: a bare `return`). */
  readonly emptyTrailing: boolean;
  /** Text between a node's children must match too (a string whose grammar has no node for its content). */
  readonly ownText: boolean;
  /** Tokens after a `$$$` are matched against the candidate's, not subtracted as a count of nodes from its run. */
  readonly trailingTokens: boolean;
  /** A pattern the grammar reads two ways at a metavariable (`sizeof($T)`: expression or type) matches both. */
  readonly readings: boolean;
  /**
   * `$_` is a wildcard in every language. Where the expando is `_` (CSS, Nix), ast-grep reads `$_` as `__`, a name
   * it matches literally; we read it as the wildcard it is everywhere else.
   */
  readonly wildcards: boolean;
}

/**
 * ast-grep's strictness levels: which nodes of the pattern and of the code may go unmatched. `smart` (the default):
 * every node of the pattern, the code's unnamed tokens skipped; `cst`: every node of both; `ast`: named nodes only;
 * `relaxed`: named nodes, comments ignored; `signature`: as `relaxed`, leaves compared by kind only, not text.
 */
export type Strictness = 'cst' | 'smart' | 'ast' | 'relaxed' | 'signature';

/** The product's matcher: every deviation on. */
export const PRODUCT: Deviations = { comments: true, backtrack: true, emptyTrailing: true, ownText: true, trailingTokens: true, readings: true, wildcards: true };

/** ast-grep 0.51's matcher, exactly. */
export const AST_GREP: Deviations = { comments: false, backtrack: false, emptyTrailing: false, ownText: false, trailingTokens: false, readings: false, wildcards: false };

/** A pattern compiled for one language. */
export interface CompiledPattern {
  readonly language: LanguageId;
  /** The pattern as the model wrote it. */
  readonly source: string;
  readonly root: PatternNode;
  /** The context rung that accepted the pattern (statement, expression, ...). */
  readonly context: string;
  /**
   * Texts every match must contain (the pattern's named leaves, such as identifiers and literals, and its
   * operators of two or more characters): a file whose text lacks one cannot match and is not parsed.
   */
  readonly literals: readonly string[];
  /**
   * The longest literal leaf and how deep it sits under the root: every match is the `depth`-th ancestor of a
   * node of that kind spelling that text, so candidates can be found from the text's occurrences instead of a
   * walk over the whole tree.
   */
  readonly anchor?: { readonly text: string; readonly kindId: number; readonly depth: number };
  /**
   * Other readings of the pattern, each a root of the same kind: the grammar reads a metavariable's place another
   * way when it holds another kind of code (`sizeof($T)` with a type). A node matching any of them matches.
   */
  readonly alternatives?: readonly PatternNode[];
  /** What each alternative reading is, for the answer ("`$T` also read as a type, as in `sizeof(int)`"). */
  readonly readings?: readonly string[];
  /**
   * Said first in every answer: the pattern may not be read as the model means, and what to write instead (a
   * metavariable the grammar reads as text, a reading by error recovery). See `caveat.ts`.
   */
  readonly caveat?: string;
  /** How the matcher deviates from ast-grep (see {@link Deviations}). */
  readonly deviations: Deviations;
  /** Names of the single and multi metavariables the pattern binds. */
  readonly singles: readonly string[];
  readonly multis: readonly string[];
}

/**
 * The kind id tree-sitter gives error nodes. A pattern node of this kind (kept only where a metavariable
 * explains the error) matches a node of any kind, as in ast-grep.
 */
export const ERROR_KIND_ID = 65535;

/** Whether a pattern node is a `$$$` run. */
export function isEllipsis(node: PatternNode): boolean {
  return node.type === 'meta' && node.meta.kind === 'multi';
}

/** Whether a pattern node is an unnamed token (`,`, `)`), which a `$$$` before it may absorb. */
export function isTrivial(node: PatternNode): boolean {
  return node.type === 'leaf' && !node.named;
}
