import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Diagnostic } from '@agent-tools/core';
import { findProjectPackage } from '../../config/servers/project-package.js';
import { displayPath } from '../../util/paths.js';
import type { ProjectChecker } from '../checker.js';

interface EslintMessage {
  readonly ruleId: string | null;
  readonly severity: number;
  readonly message: string;
  readonly line?: number;
  readonly column?: number;
  readonly endLine?: number;
  readonly endColumn?: number;
  readonly fatal?: boolean;
}

/**
 * `eslint --format json .` with the project's own eslint (the one its configuration and plugins were installed for),
 * run under the harness's Node. Exit 0 and 1 mean it linted (1: it found errors); 2 means it could not (a configuration
 * that does not load), which is a failed check, never a clean one.
 */
export const eslintChecker: ProjectChecker = {
  name: 'eslint',
  plan({ root, cwd }) {
    const dir = findProjectPackage('eslint', root);
    if (!dir) return { unavailable: `the project's own eslint package was not found (node_modules/eslint in ${displayPath(root, cwd)} or above)` };
    let bin: string | undefined;
    try {
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { bin?: string | Record<string, string> };
      bin = typeof manifest.bin === 'string' ? manifest.bin : manifest.bin?.['eslint'];
    } catch {
      // A missing or unreadable manifest (file-system or JSON errors only): no bin found.
      bin = undefined;
    }
    if (!bin) return { unavailable: `${displayPath(join(dir, 'package.json'), cwd)} names no eslint binary` };
    return {
      command: { command: process.execPath, prefixArgs: [join(dir, bin)], source: 'project', display: displayPath(join(dir, bin), cwd) },
      args: ['--format', 'json', '--no-error-on-unmatched-pattern', '.'],
      title: 'eslint --format json .',
    };
  },
  parse(output) {
    if (output.code !== 0 && output.code !== 1) {
      return { failed: `eslint could not lint the project (exit ${output.code}): ${eslintFailure(`${output.stderr}\n${output.stdout}`)}; fix that, then call lsp diagnostics "*" again` };
    }
    let files: Array<{ filePath: string; messages: EslintMessage[] }>;
    try {
      files = JSON.parse(output.stdout) as typeof files;
    } catch {
      // JSON.parse raises only SyntaxError: eslint printed something else, which the answer quotes.
      return { failed: `eslint's output was not the JSON it was asked for: ${output.stdout.slice(0, 300)}` };
    }
    return files.flatMap((file) => file.messages.map((m) => fromEslint(file.filePath, m)));
  },
};

/**
 * What ESLint said when it could not lint, on one line: its error (`Error: Cannot find module 'eslint-plugin-x'
 * Require stack: - eslint.config.js`) without its banner ("Oops! Something went wrong! :(", its version) and the
 * stack frames, which took the eight lines kept before and pushed the answer's other lines out of its part.
 */
function eslintFailure(said: string): string {
  const lines = said
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('Oops! Something went wrong') && !/^ESLint: \d/.test(line) && !/^at /.test(line));
  const text = lines.slice(0, 8).join(' ');
  return text.length > 600 ? `${text.slice(0, 600)}…` : text || 'it said nothing';
}

/** One message of `eslint --format json` as a diagnostic. */
export function fromEslint(file: string, m: EslintMessage): Diagnostic {
  return {
    file,
    line: m.line ?? 1,
    ...(m.column === undefined ? {} : { column: m.column }),
    ...(m.endLine === undefined ? {} : { endLine: m.endLine }),
    ...(m.endColumn === undefined ? {} : { endColumn: m.endColumn }),
    severity: m.severity === 2 || m.fatal ? 'error' : 'warning',
    ...(m.ruleId ? { code: m.ruleId } : {}),
    message: m.message,
    source: 'eslint',
  };
}
