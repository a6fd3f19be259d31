import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { AST_GREP } from '../corpus.js';
import { ScanError, type StreamedMatch, scanStream } from './scan-stream.js';
import { readTree, type TreeLine } from './trees.js';

const run = promisify(execFile);

/** ast-grep's language names for our ids (it knows most of ours by the same name). */
export const CLI_LANGUAGE: Readonly<Record<string, string>> = { csharp: 'csharp', javascript: 'javascript', typescript: 'typescript' };

async function cli(args: readonly string[], cwd: string): Promise<string> {
  try {
    const { stdout } = await run(AST_GREP, args, { cwd, maxBuffer: 512 * 1024 * 1024 });
    return stdout;
  } catch (error) {
    // ast-grep exits with 1 when nothing matched.
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    if (failed.code === 1 && !failed.stderr?.trim()) return failed.stdout ?? '';
    throw error;
  }
}

/** A match location: `file@startByte-endByte`. */
export type Location = string;

/**
 * Where ast-grep finds each pattern under `dir`, in one `ast-grep scan` with one inline rule per pattern. A
 * pattern ast-grep refuses is left out (and named in `refused`), found by scanning the patterns one by one only
 * when the whole scan is refused.
 */
export async function oracleLocations(
  dir: string,
  language: string,
  patterns: readonly string[],
): Promise<{ found: Map<number, Location[]>; refused: Set<number> }> {
  const refused = new Set<number>();
  const rule = (i: number): string =>
    `id: p${i}\nlanguage: ${CLI_LANGUAGE[language] ?? language}\nrule:\n  pattern: ${JSON.stringify(patterns[i])}\n`;
  const scan = (ids: number[]): Promise<StreamedMatch[]> =>
    scanStream(['scan', '--inline-rules', ids.map(rule).join('---\n'), '--json=stream', '.'], dir);
  let ids = patterns.map((_, i) => i);
  let matches: StreamedMatch[];
  try {
    matches = await scan(ids);
  } catch (error) {
    if (!refusedBeforeReading(error)) throw error;
    // Refused before any file is read: each pattern alone is tried on an empty folder (see oracleRuleLocations).
    const empty = mkdtempSync(join(tmpdir(), 'ast-grep-empty-'));
    try {
      for (const i of ids) await cli(['scan', '--inline-rules', rule(i), '--json=stream', '.'], empty).catch(() => refused.add(i));
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
    ids = ids.filter((i) => !refused.has(i));
    matches = ids.length ? await scan(ids) : [];
  }
  return { found: locationsByRule(ids, matches, 'p'), refused };
}

/** Applies `ast-grep run --pattern P --rewrite R --update-all` to every file of the language under `dir`. */
export async function oracleRewrite(dir: string, language: string, pattern: string, rewrite: string): Promise<void> {
  // `--pattern=…`: a fragment starting with `-` (a Markdown list item) is not an option.
  await cli(['run', `--pattern=${pattern}`, `--rewrite=${rewrite}`, '--lang', CLI_LANGUAGE[language] ?? language, '--update-all', '.'], dir);
}

/**
 * The tree ast-grep's own build of the grammar parses a text into (`--debug-query=cst`, which prints it whether
 * or not the text makes a usable pattern, on stderr and with any exit code). ast-grep reads `$X` in the text as
 * a metavariable first: hand it text whose metavariables are already what it would make of them.
 */
export async function oracleTree(language: string, text: string): Promise<TreeLine[]> {
  const args = ['run', `--pattern=${text}`, '--lang', CLI_LANGUAGE[language] ?? language, '--debug-query=cst', '/dev/null'];
  const out = await new Promise<string>((resolve) => {
    execFile(AST_GREP, args, { cwd: '/', maxBuffer: 512 * 1024 * 1024 }, (_error, stdout, stderr) => resolve(`${stdout}\n${stderr}`));
  });
  return readTree(out);
}

/** The shape ast-grep's own build parses a pattern into: one `depth kind` line per node. */
export async function oracleShape(language: string, pattern: string): Promise<string[]> {
  return (await oracleTree(language, pattern)).map((line) => `${line.depth} ${line.kind}`);
}

/** Where ast-grep's build of the grammar puts ERROR and MISSING-free error nodes in the given files (`file@start-end`). */
export async function oracleErrors(dir: string, language: string, files: readonly string[]): Promise<Set<Location>> {
  const rule = `id: err\nlanguage: ${CLI_LANGUAGE[language] ?? language}\nrule:\n  kind: ERROR\n`;
  const matches = await scanStream(['scan', '--inline-rules', rule, '--json=stream', ...files], dir);
  return new Set(matches.map((m) => `${m.file}@${m.start}-${m.end}`));
}

/** A rule for the CLI: ast-grep's rule object and what goes with it. */
export interface OracleRule {
  readonly rule: Record<string, unknown>;
  readonly constraints?: Record<string, unknown>;
  readonly fix?: string;
}

/**
 * Where ast-grep finds each rule under `dir`, in one `ast-grep scan` with one inline rule per generated rule (JSON
 * is YAML). A rule ast-grep refuses is left out and named in `refused`.
 */
export async function oracleRuleLocations(
  dir: string,
  language: string,
  rules: readonly OracleRule[],
): Promise<{ found: Map<number, Location[]>; refused: Map<number, string> }> {
  const refused = new Map<number, string>();
  const inline = (i: number): string => JSON.stringify({ id: `r${i}`, language: CLI_LANGUAGE[language] ?? language, ...rules[i] });
  const scan = (ids: number[]): Promise<StreamedMatch[]> =>
    scanStream(['scan', '--inline-rules', ids.map(inline).join('\n---\n'), '--json=stream', '.'], dir);
  let ids = rules.map((_, i) => i);
  let matches: StreamedMatch[];
  try {
    matches = await scan(ids);
  } catch (error) {
    if (!refusedBeforeReading(error)) throw error;
    // ast-grep refuses a rule before reading any file: each rule alone is tried on an empty folder, which is quick
    // (on the corpus, 150 rules one by one took most of an hour on a loaded machine).
    const empty = mkdtempSync(join(tmpdir(), 'ast-grep-empty-'));
    try {
      for (const i of ids) {
        await cli(['scan', '--inline-rules', inline(i), '--json=stream', '.'], empty).catch((error: { stderr?: string }) =>
          refused.set(i, (error.stderr ?? '').trim().split('\n').filter((l) => !/^(Help|See also):/.test(l.trim())).slice(0, 4).join(' ')),
        );
      }
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
    ids = ids.filter((i) => !refused.has(i));
    matches = ids.length ? await scan(ids) : [];
  }
  return { found: locationsByRule(ids, matches, 'r'), refused };
}

/** A scan that failed because ast-grep refused its rules (exit 8, an error on stderr), not a timeout or a crash. */
function refusedBeforeReading(error: unknown): boolean {
  return error instanceof ScanError && error.code !== null && error.code > 1 && error.stderr.trim() !== '';
}

/** Each id's sorted match locations (`file@start-end`); the rule ids are `<prefix><index>`. */
function locationsByRule(ids: readonly number[], matches: readonly StreamedMatch[], prefix: string): Map<number, Location[]> {
  const found = new Map<number, Location[]>(ids.map((i) => [i, []]));
  for (const m of matches) {
    if (m.ruleId.startsWith(prefix)) found.get(Number(m.ruleId.slice(prefix.length)))?.push(`${m.file}@${m.start}-${m.end}`);
  }
  for (const list of found.values()) list.sort();
  return found;
}

/** Applies a rule with its fix to every file under `dir`: `ast-grep scan --inline-rules … -U`. */
export async function oracleRuleRewrite(dir: string, language: string, rule: OracleRule): Promise<void> {
  const inline = JSON.stringify({ id: 'fix', language: CLI_LANGUAGE[language] ?? language, ...rule });
  await cli(['scan', '--inline-rules', inline, '-U', '.'], dir);
}
