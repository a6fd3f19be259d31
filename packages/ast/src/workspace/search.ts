import { statSync } from 'node:fs';
import { displayPath, resolveInside, type ToolProgress } from '@agent-tools/core';
import { specialFileKind } from '@agent-tools/core/internal';
import { AstError as RuleError } from '../errors.js';
import { hasExtensionOf, type LanguageSpec } from '../languages.js';
import type { TreeSitterLoader } from '../loader.js';
import type { CaptureRecord, MatchRecord } from '../match/find.js';
import type { CompileOptions } from '../pattern/compile.js';
import type { Query } from '../rules/types.js';
import { pickLanguage } from './language-pick.js';
import { walkFiles } from './walk.js';

/** The search arguments shared by ast_grep and ast_edit. */
export interface SearchParams {
  readonly pattern?: string | undefined;
  /** ast-grep's rule object (instead of or beside `pattern`), with what goes with it: objects, or their JSON text. */
  readonly rule?: unknown;
  readonly constraints?: unknown;
  readonly utils?: unknown;
  /** ast_edit only: new metavariables computed from captured ones. */
  readonly transform?: unknown;
  readonly path?: string | undefined;
  readonly language?: string | undefined;
}

/** The matches in one file. */
export interface FileMatches {
  /** Workspace-relative path with forward slashes. */
  readonly file: string;
  readonly absolute: string;
  /** The matches with a record, in document order: the first `keep`, or for an edit the outermost ones (whole texts). */
  readonly matches: readonly MatchRecord[];
  /** Every match in the file. */
  readonly count: number;
  /** Matches of an edit inside a recorded one, only counted (the rewrite leaves them). */
  readonly nested: number;
  /** The text the matches refer to (edits only). */
  readonly text?: string;
  /** Offsets of line starts inside multi-line string literals (edits only). */
  readonly stringLines?: readonly number[];
}

/** Everything a search found and everything it could not look at. */
export interface SearchSummary {
  readonly spec: LanguageSpec;
  /** Set when the language was inferred from a folder's files: the note the answer carries. */
  readonly inferredLanguage?: string;
  /** The compiled pattern, or rule. */
  readonly pattern: Query;
  /** The searched path, workspace-relative (`.` for the whole workspace). */
  readonly scope: string;
  readonly scopeIsFile: boolean;
  readonly filesSearched: number;
  /** Files with matches, sorted by path. */
  readonly results: readonly FileMatches[];
  readonly totalMatches: number;
  /** Files with syntax errors: searched anyway, but matches inside the broken part may be missing. */
  readonly syntaxErrors: readonly { readonly file: string; readonly line: number }[];
  /** Files that could not be read or parsed, with why. */
  readonly failures: readonly { readonly file: string; readonly reason: string }[];
  readonly binary: readonly string[];
  readonly tooLarge: readonly string[];
  /** Entries of the language that are not regular files (symbolic links, FIFOs, sockets, devices), never opened. */
  readonly notRegular: readonly { readonly file: string; readonly what: string }[];
  /** Entries left out by .gitignore rules. */
  readonly ignored: number;
}

/**
 * Resolves the path and language, compiles the pattern and searches every file of the language under the
 * path. Throws model-readable errors (unknown language, unparseable pattern, path outside the workspace).
 */
export async function searchWorkspace(
  loader: TreeSitterLoader,
  cwd: string,
  params: SearchParams,
  options: {
    wantText?: boolean;
    /** Matches per file that get a record, the first ones; the rest are only counted (default: all). */
    keep?: number;
    signal?: AbortSignal;
    /** How to compile the pattern (the product's ladder by default; ast-grep's reading for comparisons). */
    compile?: CompileOptions;
    /** Called with the compiled pattern before any file is searched; may throw to stop (a bad rewrite). */
    onCompiled?: (pattern: Query) => void;
    /** Hears how far the search is: listing files, then files searched of all. */
    onProgress?: (progress: ToolProgress) => void;
  } = {},
): Promise<SearchSummary> {
  const target = resolveInside(cwd, params.path?.trim() || '.', { mustExist: true });
  const stats = statSync(target.absolute);
  const special = specialFileKind(stats);
  const isFile = !stats.isDirectory();
  const picked = await pickLanguage(cwd, params.language, target.relative, target.absolute, isFile, options.signal);
  const spec = picked.spec;
  // The walk runs while the pattern compiles: once the files are known, a search too large for the calling thread
  // starts its workers, which then load while the compilation finishes.
  let walking: ReturnType<typeof walkFiles> | undefined;
  if (!special && !isFile) {
    options.onProgress?.({ message: `listing the ${spec.id} files under ${target.relative || '.'}` });
    walking = walkFiles(cwd, target.absolute, (name) => hasExtensionOf(spec, name), options.signal);
    walking.then(
      (walked) => loader.prepare(spec, walked.files),
      () => undefined, // awaited below, unless the pattern failed first
    );
  } else loader.prepare(spec);
  const pattern = await compileQuery(loader, spec, params, options.compile);
  options.onCompiled?.(pattern);

  let files: string[];
  let ignored = 0;
  const notRegular: { file: string; what: string }[] = [];
  if (special) {
    files = [];
    notRegular.push({ file: target.relative, what: special });
  } else if (isFile || !walking) {
    files = [target.absolute];
  } else {
    const walked = await walking;
    files = walked.files;
    ignored = walked.ignored;
    for (const entry of walked.skipped) notRegular.push({ file: displayPath(entry.path, cwd), what: entry.what });
  }

  const report = options.onProgress;
  const outcomes = await loader.search(pattern, files, {
    ...(options.wantText ? { wantText: true } : {}),
    ...(options.keep !== undefined ? { keep: options.keep } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(report && !isFile
      ? { onSearched: (done: number) => report({ message: `searched ${done} of ${files.length} files`, progress: done, total: files.length }) }
      : {}),
  });
  outcomes.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));

  const results: FileMatches[] = [];
  const syntaxErrors: { file: string; line: number }[] = [];
  const failures: { file: string; reason: string }[] = [];
  const binary: string[] = [];
  const tooLarge: string[] = [];
  let searched = 0;
  let totalMatches = 0;
  for (const outcome of outcomes) {
    const file = displayPath(outcome.file, cwd);
    switch (outcome.status) {
      case 'searched':
        searched++;
        if (outcome.errorRow !== undefined) syntaxErrors.push({ file, line: outcome.errorRow + 1 });
        if (outcome.matches.length > 0) {
          const count = outcome.count ?? outcome.matches.length;
          totalMatches += count;
          results.push({
            file,
            absolute: outcome.file,
            // An edit's records carry only the heads of their texts across threads; it needs them whole.
            matches: outcome.text !== undefined ? wholeTexts(outcome.matches, outcome.text) : outcome.matches,
            count,
            nested: outcome.nested ?? 0,
            ...(outcome.text !== undefined ? { text: outcome.text } : {}),
            ...(outcome.stringLines ? { stringLines: outcome.stringLines } : {}),
          });
        }
        break;
      case 'binary':
        binary.push(file);
        break;
      case 'too-large':
        tooLarge.push(`${file} (${outcome.reason})`);
        break;
      default:
        failures.push({ file, reason: outcome.reason ?? outcome.status });
    }
  }
  return {
    spec,
    ...(picked.inferred ? { inferredLanguage: picked.inferred } : {}),
    pattern,
    scope: target.relative,
    scopeIsFile: isFile,
    filesSearched: searched,
    results,
    totalMatches,
    syntaxErrors,
    failures,
    binary,
    tooLarge,
    notRegular,
    ignored,
  };
}

/** The pattern alone, or the rule (with the pattern as one more of its keys when both are given). */
async function compileQuery(loader: TreeSitterLoader, spec: LanguageSpec, params: SearchParams, compile: CompileOptions | undefined): Promise<Query> {
  const pattern = params.pattern;
  const ruleLike = params.rule !== undefined || params.constraints !== undefined || params.utils !== undefined || params.transform !== undefined;
  if (!ruleLike) {
    if (pattern === undefined) {
      throw new RuleError('invalid_pattern', 'Pass `pattern` (a code fragment such as `foo($A)`) or `rule` (an ast-grep rule object such as { "kind": "call_expression" }).');
    }
    return loader.compile(spec, pattern, compile);
  }
  let rule: unknown = fromJson(params.rule, 'rule');
  if (pattern !== undefined) {
    if (rule === undefined) rule = { pattern };
    else if (typeof rule === 'object' && rule !== null && !('pattern' in rule)) rule = { pattern, ...rule };
    else rule = { all: [{ pattern }, rule] };
  }
  if (rule === undefined) {
    throw new RuleError('invalid_rule', '`constraints`, `utils` and `transform` go with a `rule` or a `pattern`: pass one of them.');
  }
  return loader.compileRule(
    spec,
    {
      rule,
      ...(params.constraints !== undefined ? { constraints: fromJson(params.constraints, 'constraints') } : {}),
      ...(params.utils !== undefined ? { utils: fromJson(params.utils, 'utils') } : {}),
      ...(params.transform !== undefined ? { transform: fromJson(params.transform, 'transform') } : {}),
    },
    compile,
  );
}

/** A rule argument: JSON text is parsed (the tools take text), an object is taken as it is. */
function fromJson(value: unknown, name: string): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch (error) {
    throw new RuleError(
      'invalid_rule',
      `\`${name}\` is not valid JSON (${(error as Error).message}). Pass the object as JSON text with double-quoted keys, e.g. ${name === 'rule' ? '{"kind": "call_expression", "has": {"pattern": "await $X", "stopBy": "end"}}' : '{"A": {"regex": "^test"}}'}.`,
    );
  }
}

/** Matches with their texts whole, taken from the file's text by their offsets. */
function wholeTexts(matches: readonly MatchRecord[], text: string): MatchRecord[] {
  const whole = (capture: CaptureRecord): CaptureRecord => ({ ...capture, text: text.slice(capture.start, capture.end) });
  return matches.map((match) => ({
    ...match,
    text: text.slice(match.start, match.end),
    captures: Object.fromEntries(Object.entries(match.captures).map(([name, capture]) => [name, whole(capture)])),
    anonymous: match.anonymous.map(whole),
  }));
}
