/**
 * @agent-tools/lsp: language-server supervisor and the lsp, lsp_rename tools; diagnostics on write.
 */
export { lspTools } from './factory.js';
