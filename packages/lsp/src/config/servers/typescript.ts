import type { Diagnostic as LspDiagnostic } from 'vscode-languageserver-protocol';
import { LspError } from '../../errors.js';
import { tscChecker } from '../../project-check/checkers/tsc.js';
import { bundledNodeBin, bundledTsserver } from '../bundled.js';
import { type DependentsFinder, type DiagnosticsPuller, defineServer } from '../server-config.js';
import { JS_EXTENSIONS, TS_EXTENSIONS } from './js-extensions.js';

interface TsserverDiagnostic {
  readonly start?: { readonly line: number; readonly offset: number };
  readonly end?: { readonly line: number; readonly offset: number };
  readonly text?: string;
  readonly code?: number;
  readonly category?: string;
  readonly source?: string;
}

/**
 * Asks tsserver for a file's syntactic and semantic diagnostics synchronously, through
 * typescript-language-server's `typescript.tsserverRequest` command. Changes reach tsserver in order before
 * this request, so the answer is about the version just sent; the pushed diagnostics instead come after a
 * 200–800 ms debounce and are not sent at all when a clean file stays clean.
 */
export const tsserverDiagnostics: DiagnosticsPuller = async ({ path, execute, timeoutMs }) => {
  const commands = ['syntacticDiagnosticsSync', 'semanticDiagnosticsSync'];
  const answers = await Promise.all(commands.map((command) => execute('typescript.tsserverRequest', [command, { file: path }], timeoutMs)));
  const diagnostics: LspDiagnostic[] = [];
  for (const [index, answer] of answers.entries()) {
    const body = (answer as { body?: unknown } | null)?.body;
    if (!Array.isArray(body)) {
      const why = (answer as { message?: string } | null)?.message ?? JSON.stringify(answer)?.slice(0, 200);
      throw new LspError('request_failed', `tsserver gave no ${commands[index]} answer for ${path}: ${why}`);
    }
    for (const d of body as TsserverDiagnostic[]) diagnostics.push(fromTsserver(d));
  }
  return diagnostics;
};

/**
 * Every file that imports a file, from tsserver's `fileReferences` (the import and export declarations that name it,
 * `import()` and `require()` included), through typescript-language-server's `typescript.tsserverRequest`.
 */
export const tsserverDependents: DependentsFinder = async ({ path, execute, timeoutMs }) => {
  const answer = (await execute('typescript.tsserverRequest', ['fileReferences', { file: path }], timeoutMs)) as { body?: { refs?: Array<{ file?: string }> } } | null;
  const refs = answer?.body?.refs;
  if (!Array.isArray(refs)) throw new LspError('request_failed', `tsserver gave no fileReferences answer for ${path}.`);
  return [...new Set(refs.map((r) => r.file).filter((f): f is string => typeof f === 'string' && f !== path))];
};

function fromTsserver(d: TsserverDiagnostic): LspDiagnostic {
  const start = { line: Math.max(0, (d.start?.line ?? 1) - 1), character: Math.max(0, (d.start?.offset ?? 1) - 1) };
  const end = d.end ? { line: Math.max(0, d.end.line - 1), character: Math.max(0, d.end.offset - 1) } : start;
  const severity = d.category === 'error' ? 1 : d.category === 'warning' ? 2 : d.category === 'suggestion' ? 4 : 3;
  return {
    range: { start, end },
    message: d.text ?? '',
    severity,
    ...(d.code === undefined ? {} : { code: d.code }),
    source: d.source ?? 'typescript',
  };
}

/**
 * TypeScript and JavaScript through typescript-language-server. `useSyntaxServer: "never"`: the default
 * answers navigation from a single-file syntax server while the project loads (definitions on the import line,
 * references from one file), answers that look right and are not. tsserver comes from the project's own
 * `typescript` when it has one (the server looks there first), else from the typescript package installed with
 * @agent-tools/lsp (`tsserver.fallbackPath`), so a project without node_modules still works.
 */
export const typescriptServer = defineServer({
  id: 'typescript',
  name: 'typescript-language-server',
  languages: 'TypeScript/JavaScript',
  extensions: { ...TS_EXTENSIONS, ...JS_EXTENSIONS },
  rootMarkers: ['tsconfig.json', 'jsconfig.json', 'package.json'],
  binaries: ['typescript-language-server'],
  // tsserver dies alone when it runs out of memory on a large project (or is killed); typescript-language-server
  // then answers every request with nothing.
  innerProcess: {
    name: 'tsserver',
    commandLine: /[\\/]tsserver\.js(?:\s|$)/,
    exitMessage: /\[tsserver\] Exited\. Code: \S+\. Signal: \S+/,
    deadAnswer: (result) => (result as { type?: unknown } | null)?.type === 'noServer',
  },
  args: ['--stdio'],
  bundled: bundledNodeBin('typescript-language-server', 'typescript-language-server'),
  initializationOptions: () => {
    const fallbackPath = bundledTsserver();
    return {
      tsserver: { useSyntaxServer: 'never', ...(fallbackPath ? { fallbackPath } : {}) },
      // Renaming at a use in an importing file must rename the symbol, not alias the import (`x as y`).
      preferences: { includeCompletionsForModuleExports: false, providePrefixAndSuffixTextForRename: false },
    };
  },
  pullDiagnostics: tsserverDiagnostics,
  dependents: tsserverDependents,
  // tsserver breaks lines at U+2028 and U+2029 too; LSP does not.
  extraLineBreaks: '\u2028\u2029',
  stripsBomFromDisk: true,
  projectCheck: tscChecker,
  // The first request waits for tsserver to load the whole project.
  requestTimeoutMs: 60_000,
});
