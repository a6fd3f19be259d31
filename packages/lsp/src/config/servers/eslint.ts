import { basename } from 'node:path';
import { eslintChecker } from '../../project-check/checkers/eslint-check.js';
import { toUri } from '../../util/paths.js';
import { bundledNodeBin } from '../bundled.js';
import { defineServer } from '../server-config.js';
import { ESLINT_CONFIGS } from './eslint-configs.js';
import { eslintProblem } from './eslint-problem.js';
import { JS_EXTENSIONS, TS_EXTENSIONS } from './js-extensions.js';
import { projectPackage } from './project-package.js';

/**
 * ESLint through `vscode-eslint-language-server` (vscode-langservers-extracted), an additional server: its
 * diagnostics and fixes join the primary server's. It lints with the project's own `eslint` package (which loads
 * the project's plugins), so a root without one is not served, and says so in status.
 */
export const eslintServer = defineServer({
  id: 'eslint',
  name: 'eslint',
  languages: 'JavaScript/TypeScript lint',
  role: 'additional',
  extensions: { ...JS_EXTENSIONS, ...TS_EXTENSIONS },
  rootMarkers: ESLINT_CONFIGS,
  binaries: ['vscode-eslint-language-server'],
  args: ['--stdio'],
  bundled: bundledNodeBin('vscode-langservers-extracted', 'vscode-eslint-language-server'),
  requires: ({ root, cwd }) => projectPackage('eslint', root, cwd),
  // The server asks for its settings per document (section ""), as the VS Code extension answers them.
  settings: ({ root }) => ({
    validate: 'on',
    packageManager: 'npm',
    useESLintClass: false,
    experimental: { useFlatConfig: false },
    codeAction: { disableRuleComment: { enable: true, location: 'separateLine', commentStyle: 'line' }, showDocumentation: { enable: false } },
    codeActionOnSave: { enable: false, mode: 'all' },
    format: false,
    quiet: false,
    // The server then says which files the configuration ignores (see ignoredNotice below).
    onIgnoredFiles: 'warn',
    options: {},
    rulesCustomizations: [],
    run: 'onType',
    problems: { shortenToSingleLine: false },
    nodePath: null,
    workspaceFolder: { uri: toUri(root), name: basename(root) },
  }),
  problem: eslintProblem,
  // Reported by the server with `onIgnoredFiles: 'warn'` (above) for a file the configuration's ignores match, or one
  // outside its base path or under node_modules: without it, an ignored file read as linted and clean.
  ignoredNotice: (diagnostic) => diagnostic.code === undefined && typeof diagnostic.message === 'string' && /^File ignored\b/.test(diagnostic.message),
  projectCheck: eslintChecker,
});
