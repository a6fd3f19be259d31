/**
 * @agent-tools/eval: persistent Python and JavaScript cells on Jupyter kernels: the eval tool.
 */
export { evalTools } from './factory.js';
