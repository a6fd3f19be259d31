/**
 * @agent-tools/ast: structural code search and staged rewrites on web-tree-sitter: ast_grep, ast_edit, resolve.
 */
export { astTools } from './factory.js';
