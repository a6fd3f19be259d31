import { astTools, createTreeSitterLoader } from '@agent-tools/ast';
import type { DemoStep, HarnessPlugin } from '../plugin.js';

/**
 * The demo searches the sample project by shape (TypeScript and Python), shows that an unparseable pattern is
 * an error rather than a silent zero, then stages a multi-line Python rewrite in sample/ast/legacy.py (a file of
 * its own, so the other packages' steps see the sample unchanged), accepts it, and shows that an edit id
 * resolves once.
 */
const demo: readonly DemoStep[] = [
  {
    title: 'ast_grep finds code by shape: every .filter(...) call, receiver and arguments captured',
    tool: 'ast_grep',
    args: { pattern: '$LIST.filter($$$ARGS)', language: 'typescript' },
  },
  {
    title: 'The same pattern language in Python (language inferred from the file): filtering comprehensions',
    tool: 'ast_grep',
    args: { pattern: '[$E for $X in $L if $COND]', path: 'py/stats.py' },
  },
  {
    title: 'A pattern the grammar cannot read is an error showing where it fails, never a silent zero',
    tool: 'ast_grep',
    args: { pattern: 'def mean_quantity(:', language: 'python' },
    expectError: true,
  },
  {
    title: 'ast_edit stages a multi-line rewrite (comments between the nodes do not matter) and shows the diff; nothing is written yet',
    tool: 'ast_edit',
    args: {
      pattern: 'if $COND:\n    return True\nelse:\n    return False',
      rewrite: 'return bool($COND)',
      path: 'ast',
      language: 'python',
    },
  },
  {
    title: 'resolve accepts the staged edit: every file is checked against its staged content, then written',
    tool: 'resolve',
    args: { edit_id: 'edit_1', action: 'accept' },
  },
  {
    title: 'An edit id resolves once; using it again says what happened to it',
    tool: 'resolve',
    args: { edit_id: 'edit_1', action: 'accept' },
    expectError: true,
  },
  {
    title: 'The rewritten file, searched again: the old shape is gone',
    tool: 'ast_grep',
    args: { pattern: 'return bool($C)', path: 'ast/legacy.py' },
  },
];

/**
 * @agent-tools/ast in the harness: the tree-sitter loader is cheap to create; grammars and search workers load
 * on the first search, and the registry stops the workers on dispose.
 */
export const astPlugin: HarnessPlugin = {
  factory: astTools,
  resources: () => ({ treeSitter: createTreeSitterLoader() }),
  demo,
};
