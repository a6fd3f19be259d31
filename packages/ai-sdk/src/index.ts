/**
 * @agent-tools/ai-sdk: the tools of an agent-tools registry as a Vercel AI SDK `ToolSet` (`ai` 5, 6 or 7).
 */
export type { ImageSpelling, ModelOutput } from './model-output.js';
export { type AiSdkRegistry, type AiSdkToolsOptions, toAiSdkTools } from './to-ai-sdk-tools.js';
