/**
 * @agent-tools/ask: the question port and the ask_user tool.
 */
export { askTools } from './factory.js';
