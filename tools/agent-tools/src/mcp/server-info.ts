import { readFileSync } from 'node:fs';

const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

/** What the harness's MCP server calls itself at initialize. */
export const SERVER_INFO = Object.freeze({ name: 'agent-tools', title: 'agent-tools', version: manifest.version });
