import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { toUri } from '../../util/paths.js';
import type { ProblemReader, ServerReport } from '../server-config.js';
import { ESLINT_CONFIGS } from './eslint-configs.js';

/** `eslint/status` states of vscode-eslint's protocol. */
const STATUS_ERROR = 3;

/**
 * Why vscode-eslint-language-server did not lint a document. It answers such a document with no diagnostics at all,
 * and says why only in its own protocol (`eslint/status` with state error, `eslint/noLibrary`, `eslint/noConfig`)
 * and in its log (the error, with a stack that names the configuration file when loading it failed).
 */
export const eslintProblem: ProblemReader = (report) => {
  // Its status of a document is only known once the document was linted again.
  if (report.phase === 'before') return undefined;
  const uri = toUri(report.path);
  const mine = report.events.filter((e) => documentOf(e.params) === uri);
  const last = mine.at(-1);
  if (!last) return undefined;
  if (last.method === 'eslint/noLibrary') return `the project's eslint package could not be loaded from ${report.root}; install it in the project (npm i -D eslint)`;
  if (last.method === 'eslint/noConfig') return 'no ESLint configuration applies to this file';
  if (last.method !== 'eslint/status' || (last.params as { state?: number }).state !== STATUS_ERROR) return undefined;
  const error = lastError(report);
  const config = configNamed(error) ?? configIn(report.root);
  const message = error ? firstLine(error) : 'it reported an error and no diagnostics (its log says no more)';
  return config && error?.includes(config) ? `could not load ${config}: ${message}` : `could not lint this file: ${message}`;
};

function documentOf(params: unknown): string | undefined {
  const p = params as { uri?: unknown; document?: { uri?: unknown }; source?: { uri?: unknown } } | null;
  const uri = p?.uri ?? p?.document?.uri ?? p?.source?.uri;
  return typeof uri === 'string' ? uri : undefined;
}

/** The newest error the server logged, skipping its "An unexpected error occurred:" heading. */
function lastError(report: ServerReport): string | undefined {
  for (let i = report.log.length - 1; i >= 0; i--) {
    const line = report.log[i];
    if (line && line.type === 1 && !/^An unexpected error occurred:?\s*$/.test(line.message.trim())) return line.message;
  }
  return undefined;
}

/** The configuration file a stack trace points into (`…/eslint.config.mjs?mtime=…:2:7`). */
function configNamed(error: string | undefined): string | undefined {
  const match = error ? /[\\/]((?:eslint\.config|\.eslintrc)(?:\.[cm]?[jt]s|\.ya?ml|\.json)?)(?:[?:]|$)/m.exec(error) : null;
  return match?.[1];
}

function configIn(root: string): string | undefined {
  const found = ESLINT_CONFIGS.find((name) => existsSync(join(root, name)));
  return found ? basename(found) : undefined;
}

/** The error's first line without Node's `Error: ` class prefix. */
function firstLine(error: string): string {
  const line = error.trim().split('\n')[0] ?? '';
  return line.replace(/^(?:[A-Z][A-Za-z]*)?Error: /, '').slice(0, 300);
}
