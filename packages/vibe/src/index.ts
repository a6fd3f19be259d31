/**
 * @agent-tools/vibe: background workers: vibe_spawn, vibe_send, vibe_wait, vibe_kill, vibe_list.
 */
export { vibeTools } from './factory.js';
