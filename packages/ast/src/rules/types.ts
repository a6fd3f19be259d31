import type { LanguageId } from '../languages.js';
import type { CompiledPattern, Strictness } from '../pattern/pattern-node.js';

/** How far a relational rule looks: the nearest node only, every node, or every node up to one a rule matches. */
export type StopBy = 'neighbor' | 'end' | RuleNode;

/**
 * One node of a compiled rule (ast-grep's rule object, checked and compiled): plain data, so a compiled rule can
 * be posted to a worker thread. Kind ids are the grammar's public symbol ids (`Node.typeId`).
 */
export type RuleNode =
  | {
      readonly type: 'pattern';
      readonly pattern: CompiledPattern;
      readonly strictness: Strictness;
      /** The selector's kind of a pattern object: a match must be of this kind (its root may be a metavariable). */
      readonly rootKind?: number;
    }
  | { readonly type: 'kind'; readonly kindId: number; readonly kind: string }
  | { readonly type: 'regex'; readonly source: string; readonly flags: string }
  | {
      readonly type: 'nthChild';
      /** `An+B` as ast-grep reads it: step A (0 for a plain position) and offset B, 1-based. */
      readonly step: number;
      readonly offset: number;
      readonly reverse: boolean;
      readonly ofRule?: RuleNode;
    }
  | {
      readonly type: 'inside' | 'has' | 'precedes' | 'follows';
      readonly rule: RuleNode;
      readonly stopBy: StopBy;
      /** A field name of the grammar (inside and has only). */
      readonly field?: string;
    }
  | { readonly type: 'all' | 'any'; readonly rules: readonly RuleNode[] }
  | { readonly type: 'not'; readonly rule: RuleNode }
  | { readonly type: 'matches'; readonly util: string };

/** One transformation of a captured text into a new metavariable (ast_edit's rewrite may use it). */
export type Transformation =
  | { readonly type: 'substring'; readonly source: string; readonly startChar?: number; readonly endChar?: number }
  | { readonly type: 'replace'; readonly source: string; readonly replace: string; readonly flags: string; readonly by: string }
  | {
      readonly type: 'convert';
      readonly source: string;
      readonly toCase: StringCase;
      readonly separatedBy?: readonly Separator[];
    };

/** ast-grep's `convert` cases. */
export type StringCase = 'lowerCase' | 'upperCase' | 'capitalize' | 'camelCase' | 'snakeCase' | 'kebabCase' | 'pascalCase';
/** ast-grep's `separatedBy` separators. */
export type Separator = 'caseChange' | 'dash' | 'dot' | 'slash' | 'space' | 'underscore';

/** A rule compiled for one language: what a search runs instead of a single pattern. */
export interface CompiledRule {
  readonly type: 'rule';
  readonly language: LanguageId;
  /** The rule as the model wrote it, as one line of JSON (for headlines). */
  readonly source: string;
  readonly root: RuleNode;
  /** `utils` of the call, by name (`matches`). */
  readonly utils: Readonly<Record<string, RuleNode>>;
  /** Rules a metavariable's captured node must also match, by metavariable name. */
  readonly constraints: Readonly<Record<string, RuleNode>>;
  /** Transformations by the name of the metavariable they define, in the order they must be computed. */
  readonly transform: readonly (readonly [string, Transformation])[];
  /** The kinds of node a match can have (ast-grep's potential kinds): the only candidates visited. */
  readonly kinds: readonly number[];
  /** Their names, for the tree walk and the answer. */
  readonly kindNames: readonly string[];
  /** Texts every file with a match must contain (from the patterns the rule requires): other files are not parsed. */
  readonly literals: readonly string[];
  /** A pattern every match must match at its own node, whose anchor's occurrences give the candidates (see anchorOf). */
  readonly anchor?: CompiledPattern;
  /** Metavariables the rule can bind (and those its transform defines), for rewrites. */
  readonly singles: readonly string[];
  readonly multis: readonly string[];
  /** How each pattern of the rule was read, for the answer. */
  readonly context: string;
}

/** What a search runs: a pattern or a rule. */
export type Query = CompiledPattern | CompiledRule;

/** Whether a query is a rule. */
export function isRule(query: Query): query is CompiledRule {
  return (query as { type?: unknown }).type === 'rule';
}
