import { capText, plural } from '@agent-tools/core/internal';
import type { CaptureRecord, MatchRecord } from '../match/find.js';
import { enclosingConstruct } from '../pattern/enclosing.js';
import { isRule } from '../rules/types.js';
import type { SearchSummary } from '../workspace/search.js';

/** One match as `ast_grep` returns it in `structured` (1-based lines and columns, end column exclusive). */
export interface MatchInfo {
  readonly file: string;
  readonly startLine: number;
  readonly endLine: number;
  readonly startColumn: number;
  readonly endColumn: number;
  /** The matched code, or its first 2,000 characters when it is longer (then `textLength` is set). */
  readonly text: string;
  /** The length of the matched code in UTF-16 units, when `text` holds only its head. */
  readonly textLength?: number;
  /** Each metavariable's capture: its text and place (a `$$$NAME` run also lists the texts of its nodes). */
  readonly captures: Readonly<Record<string, CaptureInfo>>;
  /** What each unnamed `$$$` took, in the order they were matched. */
  readonly anonymous: readonly CaptureInfo[];
}

/** A capture as `structured` gives it: text and place (1-based lines and columns, end column exclusive). */
export interface CaptureInfo {
  /** The captured code, or its first 2,000 characters when it is longer (then `textLength` is set). */
  readonly text: string;
  /** The length of the captured code in UTF-16 units, when `text` holds only its head. */
  readonly textLength?: number;
  readonly startLine: number;
  readonly startColumn: number;
  readonly endLine: number;
  readonly endColumn: number;
  /** For a `$$$` run: the texts of its named nodes (the first 50, each cut to 200 characters). */
  readonly items?: readonly string[];
  /** For a `$$$` run of more named nodes than `items` lists: how many. */
  readonly itemCount?: number;
}

function captureInfo(capture: CaptureRecord): CaptureInfo {
  return {
    text: capture.text,
    ...(capture.text.length < capture.end - capture.start ? { textLength: capture.end - capture.start } : {}),
    startLine: capture.startRow + 1,
    startColumn: capture.startColumn + 1,
    endLine: capture.endRow + 1,
    endColumn: capture.endColumn + 1,
    ...(capture.items ? { items: capture.items } : {}),
    ...(capture.itemCount !== undefined ? { itemCount: capture.itemCount } : {}),
  };
}

/** Lines of a matched text shown before the rest is counted. */
const MAX_MATCH_LINES = 4;
/** Characters of one shown line. */
const MAX_LINE = 160;
/** Characters of one shown capture. */
const MAX_CAPTURE = 100;
/** Files named in a note before the rest is counted. */
const MAX_NAMED = 5;

/** `structured` match data of a search: every match, 1-based. */
export function matchInfo(file: string, match: MatchRecord): MatchInfo {
  const captures: Record<string, CaptureInfo> = {};
  for (const [name, capture] of Object.entries(match.captures)) captures[name] = captureInfo(capture);
  return {
    file,
    startLine: match.startRow + 1,
    endLine: match.endRow + 1,
    startColumn: match.startColumn + 1,
    endColumn: match.endColumn + 1,
    text: match.text,
    ...(match.text.length < match.end - match.start ? { textLength: match.end - match.start } : {}),
    captures,
    anonymous: match.anonymous.map(captureInfo),
  };
}

/**
 * The matched text as shown to the model: a few lines, relative indentation kept, long lines cut. A record keeps
 * only the head of a long match: its line count comes from its rows, and the length of a line cut by the head from
 * its offsets where that line is the last.
 */
export function shownText(match: MatchRecord): string[] {
  const lines = match.text.split('\n');
  const total = match.endRow - match.startRow + 1;
  const shown = lines.slice(0, MAX_MATCH_LINES).map((line, i) => {
    const body = i === 0 ? line : line.slice(Math.min(match.startColumn, /^[ \t]*/.exec(line)?.[0].length ?? 0));
    return cutLine(body, MAX_LINE, hiddenOf(match, lines, i, total));
  });
  const more = total - shown.length;
  // (The empty last line of a text that ends with a line break, which a whole text shows, is not worth a line here.)
  if (more > 0 && !(more === 1 && match.endColumn === 0 && lines.length < total)) shown.push(`… (${plural(more, 'more line')})`);
  return shown;
}

/** `$NAME: text` lines for a match's captures. */
export function shownCaptures(match: MatchRecord): string[] {
  return Object.entries(match.captures).map(([name, capture]) => `${capture.items ? '$$$' : '$'}${name}: ${captureText(capture)}`);
}

function captureText(capture: CaptureRecord): string {
  if (capture.items && capture.items.length === 0) return '(nothing)';
  const lines = capture.text.split('\n');
  const total = capture.endRow - capture.startRow + 1;
  const first = cutLine(lines[0] ?? '', MAX_CAPTURE, hiddenOf(capture, lines, 0, total));
  return total > 1 ? `${first} … (+${plural(total - 1, 'line')})` : first;
}

/**
 * Characters of line `i` of a text that its record's head does not hold: 0 for a line the head holds whole, the
 * rest of the text for its last line (or the one before an empty last line: the text ends with a line break),
 * `undefined` where the head ends inside a line that more lines follow.
 */
function hiddenOf(
  record: { readonly text: string; readonly start: number; readonly end: number; readonly endColumn: number; readonly lineRest?: number },
  lines: readonly string[],
  i: number,
  total: number,
): number | undefined {
  const missing = record.end - record.start - record.text.length;
  if (missing <= 0 || i < lines.length - 1) return 0;
  if (record.lineRest !== undefined) return record.lineRest;
  if (i === total - 1) return missing;
  return i === total - 2 && record.endColumn === 0 ? missing - 1 : undefined;
}

/** A line cut to `max` characters, saying how many more it has (`hidden`: beyond `body`, unknown when undefined). */
function cutLine(body: string, max: number, hidden: number | undefined): string {
  if (hidden === 0) return capText(body, max);
  let end = Math.min(body.length, max);
  const last = body.charCodeAt(end - 1);
  if (end < body.length && last >= 0xd800 && last <= 0xdbff) end--;
  const head = body.slice(0, end);
  return hidden === undefined ? `${head}… (more characters)` : `${head}… (${body.length - end + hidden} more characters)`;
}

/** "2 files (.py, .pyi) under src" — what was searched, for the headline and zero-match answers. */
export function scopeText(summary: SearchSummary): string {
  const where = summary.scopeIsFile ? summary.scope : summary.scope === '.' ? 'the working directory' : `${summary.scope}/`;
  if (summary.scopeIsFile) return `${where} (${summary.spec.id})`;
  const n = summary.filesSearched;
  const exts = summary.spec.extensions.map((e) => `.${e}`).join(', ');
  return `${plural(n, `${summary.spec.id} file`)} (${exts}) under ${where}`;
}

/** Notes on what could not be searched fully: syntax errors, failures, skipped files, .gitignore. */
export function caveats(summary: SearchSummary): string[] {
  const notes: string[] = [];
  if (summary.inferredLanguage) notes.push(summary.inferredLanguage);
  const readings = 'readings' in summary.pattern ? (summary.pattern.readings ?? []) : [];
  if (readings.length > 0) {
    notes.push(`The pattern reads more than one way: ${readings.join('; ')}. Every reading was matched.`);
  }
  if (summary.syntaxErrors.length > 0) {
    const named = summary.syntaxErrors.map((e) => `${e.file}:${e.line}`);
    notes.push(
      `${plural(summary.syntaxErrors.length, 'file')} with syntax errors ${summary.syntaxErrors.length === 1 ? 'was' : 'were'} searched anyway; matches inside the broken part may be missing: ${list(named)}.`,
    );
  }
  if (summary.failures.length > 0) {
    notes.push(
      `${plural(summary.failures.length, 'file')} could not be searched: ${list(summary.failures.map((f) => `${f.file} (${f.reason})`))}.`,
    );
  }
  if (summary.stopped.length > 0) {
    notes.push(
      `${plural(summary.stopped.length, 'file')} searched only in part, the matches after the place where matching stopped not looked for: ${list(summary.stopped.map((f) => `${f.file} (${f.reason})`))}.`,
    );
  }
  if (summary.tooLarge.length > 0) notes.push(`Skipped as too large: ${list(summary.tooLarge)}.`);
  if (summary.binary.length > 0) notes.push(`Skipped as binary: ${list(summary.binary)}.`);
  if (summary.notRegular.length > 0 && !(summary.scopeIsFile && summary.filesSearched === 0)) {
    notes.push(notRegularNote(summary));
  }
  return notes;
}

function notRegularNote(summary: SearchSummary): string {
  const named = summary.notRegular.map((entry) => `${entry.file} (${entry.what})`);
  return `${plural(named.length, 'file')} skipped as not regular files, never opened: ${list(named)}.`;
}

/** "a, b, c and 4 more". */
export function list(items: readonly string[]): string {
  if (items.length <= MAX_NAMED) return items.join(', ');
  return `${items.slice(0, MAX_NAMED).join(', ')} and ${items.length - MAX_NAMED} more`;
}

/**
 * The answer's first lines: that it is incomplete, when a file of the language could not be searched, was searched
 * only in part or was skipped (each named at the end), and how the pattern was read where that may not be what the
 * model means.
 */
export function readingFirst(summary: SearchSummary): string[] {
  const { pattern } = summary;
  const out: string[] = [];
  const was = (n: number): string => (n === 1 ? 'was' : 'were');
  const parts = [
    ...(summary.failures.length ? [`${plural(summary.failures.length, 'file')} could not be searched`] : []),
    ...(summary.stopped.length ? [`${plural(summary.stopped.length, 'file')} ${was(summary.stopped.length)} searched only in part`] : []),
    ...(summary.tooLarge.length ? [`${plural(summary.tooLarge.length, 'file')} ${was(summary.tooLarge.length)} skipped as too large`] : []),
    ...(summary.binary.length ? [`${plural(summary.binary.length, 'file')} ${was(summary.binary.length)} skipped as binary`] : []),
  ];
  if (parts.length > 0) {
    const last = parts.pop() as string;
    out.push(`Incomplete: ${parts.length ? `${parts.join(', ')} and ${last}` : last} (named at the end).`);
  }
  if (!isRule(pattern) && pattern.caveat) out.push(pattern.caveat);
  return out;
}

/** The zero-match answer: what was searched, how the pattern was read, and what to try. */
export function noMatchText(summary: SearchSummary): string {
  const { pattern } = summary;
  if (isRule(pattern)) {
    return `No match for the rule ${oneLine(pattern.source)} in ${scopeText(summary)}. Candidates were the nodes of kind ${pattern.kindNames.join(', ')}${pattern.context ? `; its patterns: ${pattern.context}` : ''}. Check each part of the rule alone (ast_grep with one key at a time) and ast_tree to see how the code parses.`;
  }
  const kind = pattern.root.type === 'meta' ? 'any node' : pattern.root.kind;
  if (summary.scopeIsFile && summary.notRegular.length > 0) {
    const only = summary.notRegular[0];
    return `${only?.file} is ${only?.what}, not a regular file, so it was not opened and nothing was searched. Pass a regular file or a folder as \`path\`.`;
  }
  // The one file asked for was not searched: say why, not that the code is not there.
  if (summary.scopeIsFile && summary.filesSearched === 0) {
    const large = summary.tooLarge[0];
    const failure = summary.failures[0];
    if (large) return `Nothing was searched: ${large} is larger than the size searched (files over it are skipped); a text search can look inside it.`;
    if (summary.binary.length > 0) return `Nothing was searched: ${summary.scope} holds a NUL byte among its first 8,000 bytes, so it is taken for a binary file and skipped; a text search can look inside it.`;
    if (failure) return `Nothing was searched: ${failure.file} could not be searched (${failure.reason}).`;
  }
  if (summary.filesSearched === 0 && !summary.scopeIsFile) {
    const exts = summary.spec.extensions.map((e) => `.${e}`).join(', ');
    const where = summary.scope === '.' ? 'the working directory' : `${summary.scope}/`;
    const skipped = summary.notRegular.length > 0 ? ` ${notRegularNote(summary)}` : '';
    return `No ${summary.spec.id} files (${exts}) under ${where}, so nothing was searched. Check \`path\` and \`language\` (hidden, node_modules and .gitignore'd files are skipped).${skipped}`;
  }
  // A fragment that starts like a clause of a larger construct but parsed as something else (`catch (e) {}` is a
  // JavaScript method named catch): say how to write the clause.
  const clause = enclosingConstruct(summary.spec.id, pattern.source.trim());
  const hint = clause
    ? ` If you meant the \`${clause.clause}\` clause of a larger construct, a pattern is one complete node: write the construct, e.g. \`${oneLine(clause.suggestion)}\`.`
    : '';
  return `No match for \`${oneLine(pattern.source)}\` in ${scopeText(summary)}. The pattern was read as a ${pattern.context} whose root is ${kind}. The code is not there in this shape: try a looser pattern ($_ or $$$ for the parts that vary), or another path; ast_tree shows how the pattern and the code parse.${hint}`;
}

/** A pattern on one line, cut to 120 characters, for headlines. */
export function oneLine(text: string): string {
  const flat = text.replace(/\s*\n\s*/g, ' ').trim();
  return flat.length > 120 ? `${flat.slice(0, 120)}…` : flat;
}
