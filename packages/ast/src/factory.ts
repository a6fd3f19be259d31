import { defineFactory } from '@agent-tools/core';
import type { TreeSitterLoader } from './loader.js';
import { EditStore } from './staging/edit-store.js';
import { createAstEditTool } from './tools/ast-edit.js';
import { createAstGrepTool } from './tools/ast-grep.js';
import { createAstTreeTool } from './tools/ast-tree.js';
import { createResolveTool } from './tools/resolve.js';

declare module '@agent-tools/core' {
  interface Resources {
    /** The tree-sitter loader of `@agent-tools/ast` (`createTreeSitterLoader()`). */
    treeSitter?: TreeSitterLoader;
  }
}

/**
 * The factory of @agent-tools/ast. With `cwd` and `treeSitter` present it registers `ast_grep` and `ast_tree` (read),
 * `ast_edit` (write) and `resolve` (write). Edits staged by `ast_edit` live as long as the registry.
 */
export const astTools = defineFactory({
  name: '@agent-tools/ast',
  needs: ['cwd', 'treeSitter'],
  create: (resources, run) => {
    const store = new EditStore();
    const loader = resources.treeSitter;
    // A search worker's bug outside any search (a crash while idle, a failed warm-up) goes to the run's onError.
    const stop = run ? loader.onBackgroundError(run.reportError) : () => undefined;
    return {
      tools: [
        createAstGrepTool(loader, resources.cwd),
        createAstTreeTool(loader, resources.cwd),
        createAstEditTool(loader, store, resources.cwd),
        createResolveTool(store, resources.cwd),
      ],
      dispose: stop,
    };
  },
});
