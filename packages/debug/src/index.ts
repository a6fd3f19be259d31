/**
 * @agent-tools/debug: debug-adapter supervisor and the debug tool.
 */
export { debugTools } from './factory.js';
