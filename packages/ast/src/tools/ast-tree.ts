import { readFileSync, statSync } from 'node:fs';
import { defineTool, resolveInside, textResult } from '@agent-tools/core';
import { z } from 'zod';
import { AstError } from '../errors.js';
import { LANGUAGE_IDS, type LanguageSpec, languageOfFile, languageSpec } from '../languages.js';
import type { TreeSitterLoader } from '../loader.js';
import { notReadable } from '../pattern/not-readable.js';
import { AST_GREP } from '../pattern/pattern-node.js';
import { type PrintedTree, printPattern, printTree } from '../tree/print.js';
import { languageParameter } from './shared.js';

/** Parameters of `ast_tree`. */
export const astTreeParameters = z.object({
  code: z.string().optional().describe('A snippet to parse (needs `language`).'),
  path: z.string().optional().describe('A file to parse, relative to the working directory (the language is inferred from its extension).'),
  start_line: z.number().int().min(1).optional().describe('With `path`: the first line to show (1-based).'),
  end_line: z.number().int().min(1).optional().describe('With `path`: the last line to show (default: start_line, or the end of the file).'),
  pattern: z.string().optional().describe('A pattern: shows how ast_grep reads it (which context, which root kind, what each node must match).'),
  language: languageParameter,
  tokens: z.boolean().default(false).describe('Show unnamed tokens (punctuation, keywords) too; default named nodes only.'),
  max_lines: z.number().int().min(10).max(2000).default(300).describe('Lines of tree shown at most (default 300).'),
});

/** The `structured` part of an `ast_tree` result. */
export interface AstTreeResult {
  readonly language: string;
  readonly tree?: readonly string[];
  readonly treeOmitted?: number;
  readonly syntaxErrors?: boolean;
  readonly pattern?: {
    readonly context: string;
    readonly rootKind: string;
    readonly tree: readonly string[];
    /** How ast-grep reads the fragment alone, when that differs from ours (or `unparseable`). */
    readonly astGrep?: { readonly rootKind: string; readonly tree: readonly string[] } | 'unparseable';
  };
}

/** Files larger than this are not parsed for display. */
const MAX_FILE_BYTES = 2 * 1024 * 1024;

const DESCRIPTION = [
  'Show how code parses: the syntax tree of a snippet (`code` + `language`) or of a file\'s lines (`path`, `start_line`, `end_line`), as indented `field: kind` lines with 1-based line:column ranges, leaves with their text, ERROR and MISSING nodes marked;',
  'and/or how a `pattern` is read by ast_grep (which context of the ladder accepted it, the kind of its root node, what each of its nodes must match, and how ast-grep itself would read the fragment alone when that differs).',
  'Use it to write a `kind`, `field` or pattern that matches, or to understand why ast_grep found nothing. Read-only; the output is capped (`max_lines`).',
].join(' ');

/** Creates `ast_tree` over a loader, for a working directory. */
export function createAstTreeTool(loader: TreeSitterLoader, cwd: string) {
  return defineTool({
    name: 'ast_tree',
    tier: 'read',
    description: DESCRIPTION,
    parameters: astTreeParameters,
    parallelSafe: true,
    async execute(params, ctx) {
      const root = ctx.cwd ?? cwd;
      if (params.code === undefined && params.path === undefined && params.pattern === undefined) {
        throw new AstError('invalid_pattern', 'Pass `code` (with `language`), `path` (a file, optionally with start_line/end_line) or `pattern` (with `language`).');
      }
      if (params.code !== undefined && params.path !== undefined) {
        throw new AstError('invalid_pattern', 'Pass either `code` or `path`, not both.');
      }
      let text: string | undefined = params.code;
      let where = 'the snippet';
      let spec: LanguageSpec | undefined = params.language?.trim() ? languageSpec(params.language) : undefined;
      if (params.path !== undefined) {
        const target = resolveInside(root, params.path.trim(), { mustExist: true });
        const stat = statSync(target.absolute);
        if (!stat.isFile()) throw new AstError('invalid_pattern', `"${target.relative}" is not a file; ast_tree shows one file (or a snippet).`);
        if (stat.size > MAX_FILE_BYTES) throw new AstError('invalid_pattern', `"${target.relative}" is larger than 2 MiB; pass a snippet of it as \`code\`.`);
        spec ??= languageOfFile(target.relative);
        if (!spec) {
          throw new AstError('unknown_language', `The language of "${target.relative}" cannot be inferred from its extension. Pass \`language\`, one of: ${LANGUAGE_IDS.join(', ')}.`);
        }
        text = readFileSync(target.absolute, 'utf8');
        where = target.relative;
      }
      if (!spec) throw new AstError('unknown_language', `Pass \`language\`, one of: ${LANGUAGE_IDS.join(', ')}.`);
      const lines: string[] = [];
      let partial = '';
      const structured: { -readonly [K in keyof AstTreeResult]: AstTreeResult[K] } = { language: spec.id };

      if (params.pattern !== undefined) {
        const compiled = await loader.compile(spec, params.pattern);
        const printed = printPattern(compiled.root, params.max_lines);
        const rootKind = compiled.root.type === 'meta' ? 'any node (a metavariable)' : compiled.root.kind;
        lines.push(`Pattern \`${params.pattern.replace(/\s+/g, ' ').trim()}\` (${spec.id}) is read as ${compiled.context}; its root is ${rootKind}, so only ${rootKind === 'any node (a metavariable)' ? 'nodes' : `${rootKind} nodes`} can match:`, ...printed.lines.map((l) => `  ${l}`));
        const theirs = await loader.compile(spec, params.pattern, { style: 'ast-grep', deviations: AST_GREP }).catch(notReadable);
        let astGrep: NonNullable<AstTreeResult['pattern']>['astGrep'];
        if (!theirs) {
          astGrep = 'unparseable';
          lines.push('ast-grep itself, reading the fragment alone, finds no single node in it (it would refuse or misread this pattern).');
        } else {
          const other = printPattern(theirs.root, params.max_lines);
          const theirRoot = theirs.root.type === 'meta' ? 'any node' : theirs.root.kind;
          if (other.lines.join('\n') !== printed.lines.join('\n')) {
            astGrep = { rootKind: theirRoot, tree: other.lines };
            lines.push(`ast-grep itself reads the fragment alone differently, rooted in ${theirRoot}:`, ...other.lines.map((l) => `  ${l}`));
          }
        }
        structured.pattern = { context: compiled.context, rootKind, tree: printed.lines, ...(astGrep ? { astGrep } : {}) };
        if (text !== undefined) lines.push('');
      }

      if (text !== undefined) {
        const tree = await loader.runtime.parse(spec, text, { deadline: Date.now() + 10_000 });
        if (!tree) throw new AstError('invalid_pattern', `Parsing ${where} took longer than 10 s.`);
        try {
          const total = text.split('\n').length;
          let within: { first: number; last: number } | undefined;
          if (params.start_line !== undefined || params.end_line !== undefined) {
            if (params.path === undefined) throw new AstError('invalid_pattern', '`start_line` and `end_line` go with `path`.');
            const first = (params.start_line ?? 1) - 1;
            const last = (params.end_line ?? (params.start_line !== undefined ? params.start_line : total)) - 1;
            if (first > last) throw new AstError('invalid_pattern', `start_line ${first + 1} is after end_line ${last + 1}.`);
            if (first >= total) throw new AstError('invalid_pattern', `${where} has ${total} lines; start_line ${first + 1} is past its end.`);
            within = { first, last };
          }
          const printed: PrintedTree = printTree(tree.rootNode, { tokens: params.tokens, maxLines: params.max_lines, ...(within ? { within } : {}) });
          const range = within ? ` lines ${within.first + 1}-${within.last + 1}` : '';
          const errors = tree.rootNode.hasError;
          if (printed.omitted > 0) {
            partial = `Partial: ${printed.lines.length} of ${printed.lines.length + printed.omitted} nodes of ${where}${range} shown (max_lines ${params.max_lines}); narrow start_line/end_line or raise max_lines.`;
          }
          lines.push(
            `Syntax tree of ${where}${range} (${spec.id}; ${params.tokens ? 'all nodes' : 'named nodes only, tokens hidden'}${errors ? '; it has syntax errors: see ERROR / MISSING' : ''}):`,
            ...printed.lines,
          );
          structured.tree = printed.lines;
          structured.syntaxErrors = errors;
          if (printed.omitted) structured.treeOmitted = printed.omitted;
        } finally {
          tree.delete();
        }
      }
      return textResult([...(partial ? [partial] : []), ...lines].join('\n'), structured as AstTreeResult);
    },
  });
}
