/**
 * @agent-tools/ast: structural code search and staged rewrites on web-tree-sitter: ast_grep, ast_edit, resolve.
 */

export type { FileOutcome, FileStatus } from './engine/file-search.js';
export type { WorkerStats } from './engine/protocol.js';
export { AstError, type AstErrorCode } from './errors.js';
export { astTools } from './factory.js';
export type { CaptureInfo, MatchInfo } from './format/search-report.js';
export type { LanguageId, LanguageSpec } from './languages.js';
export {
  createTreeSitterLoader,
  type SearchOptions,
  TreeSitterLoader,
  type TreeSitterLoaderOptions,
} from './loader.js';
export type { CaptureRecord, MatchRecord } from './match/find.js';
export type { MetaVar } from './pattern/metavars.js';
export type { CompiledPattern, PatternNode } from './pattern/pattern-node.js';
export type { AstEditResult } from './tools/ast-edit.js';
export { astEditParameters } from './tools/ast-edit.js';
export type { AstGrepResult } from './tools/ast-grep.js';
export { astGrepParameters } from './tools/ast-grep.js';
export type { AstTreeResult } from './tools/ast-tree.js';
export { astTreeParameters } from './tools/ast-tree.js';
export type { ResolveResult } from './tools/resolve.js';
export { resolveParameters } from './tools/resolve.js';
