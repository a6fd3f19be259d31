import { defineTool, type ToolProgress, type ToolResult } from '@agent-tools/core';
import { callHierarchy } from './actions/call-hierarchy.js';
import { codeActions } from './actions/code-actions.js';
import { diagnostics } from './actions/diagnostics.js';
import { hover } from './actions/hover.js';
import { navigate } from './actions/navigate.js';
import { reload } from './actions/reload.js';
import { status } from './actions/status.js';
import { symbols } from './actions/symbols.js';
import { type LspParams, lspParameters } from './lsp-parameters.js';
import { translateRefusal } from './server-errors.js';
import { failure, type ToolEnv, withNotes } from './shared.js';

/** The `lsp` tool's description; its first line names every built-in server's languages (test/lsp-description.test.ts). */
export const DESCRIPTION = `Ask the project's language servers (TypeScript/JavaScript, Python, Go, C/C++, Rust, Dart, JSON, CSS/SCSS/LESS, HTML, YAML, Bash/sh, Dockerfile; the linters ESLint and Biome beside them) about code, with compiler accuracy instead of text search.

Address a position by "line" (1-based) and "symbol" (the name as written on that line), never by column. If the name occurs more than once on the line, add "occurrence" (1 = leftmost). For a.b.c the position is on c.

Actions:
- definition, type_definition, implementation, references: file, line, symbol. Where it is declared, where its type is declared, its concrete implementations, every use (references include the declaration; capped at 50).
- incoming_calls, outgoing_calls: file, line, symbol (a function or method). Every call site of it, each with the function it is in; or every function it calls, where declared and how often (capped at 50).
- hover: file, line, symbol. Its signature and doc comment.
- symbols: query to search the whole workspace by name (capped at 100), or file for that file's outline (capped at 200).
- code_actions: file, line, symbol. The quick fixes the file's servers (its language server, and linters such as ESLint) offer there for the problems on that line, numbered; nothing is applied (lsp_fix applies one by its number, where you may change files).
- diagnostics: file for its current errors and warnings from every server of the file, each labelled with its source ([typescript], [eslint], ...); file "*" runs the project's whole check (tsc --noEmit, eslint, pyright, gopls check and go vet, ...). A part that could not run is reported NOT VERIFIED: never treat it as clean.
- status: which servers run for which project roots, and for the others whether the root marker (tsconfig.json, pyproject.toml, go.mod, ...) or the server binary is missing, and why a linter server (ESLint, Biome) does not run or does not check.
- reload: restart the server of file's project (or every server without file) when answers look stale or requests hang.

Long lists (references, incoming_calls, outgoing_calls, symbols with query, diagnostics) come in pages: a cut answer names every file with its count and the exact call for the next page ("offset"); "path" (a file or folder) keeps only results there. symbols with query lists names containing the query, the working directory's own; add "outside": true for libraries' too.

Answers use paths relative to the working directory, 1-based lines and the text of each line. An answer whose first line begins with INCOMPLETE was given while the server was still indexing the project: call again for the complete one. To rename a symbol across files use lsp_rename. Writes made with the file tools report new diagnostics by themselves.`;

/** The `lsp` tool: every read-only question a language server answers. */
export function lspTool(env: ToolEnv) {
  return defineTool({
    name: 'lsp',
    tier: 'read',
    description: DESCRIPTION,
    parameters: lspParameters,
    parallelSafe: true,
    // Whole-project checks run the project's compiler; navigation has its own per-request timeout.
    timeoutMs: 300_000,
    async execute(params, ctx): Promise<ToolResult> {
      try {
        return withNotes(env, await run(env, params, ctx.signal, (progress) => ctx.reportProgress(progress), (error) => ctx.reportError(error)));
      } catch (error) {
        const where = params.file && params.line !== undefined ? `${params.file}:${params.line}` : undefined;
        const translated = await translateRefusal(error, { cwd: env.cwd, ...(params.symbol ? { symbol: params.symbol.trim() } : {}), ...(where ? { where } : {}) });
        return withNotes(env, failure(translated, { action: params.action }));
      }
    },
  });
}

function run(
  env: ToolEnv,
  params: LspParams,
  signal: AbortSignal,
  report: (progress: ToolProgress) => void,
  onBug: (error: unknown) => void,
): Promise<ToolResult> | ToolResult {
  switch (params.action) {
    case 'definition':
    case 'type_definition':
    case 'implementation':
    case 'references':
      return navigate(env, params.action, params, signal, report);
    case 'incoming_calls':
    case 'outgoing_calls':
      return callHierarchy(env, params.action, params, signal, report);
    case 'hover':
      return hover(env, params, signal, report);
    case 'symbols':
      return symbols(env, params, signal, report);
    case 'code_actions':
      return codeActions(env, params, signal);
    case 'diagnostics':
      return diagnostics(env, params, signal, report, onBug);
    case 'status':
      return status(env, params);
    case 'reload':
      return reload(env, params, signal);
  }
}
