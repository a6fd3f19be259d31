/**
 * Writes the tool manifest (`dist/tool-manifest.json`, see tool-manifest.ts) after the build: assembles a run with
 * every package, each one's resources present, and records what `tools/list` shows of each tool. Run by the
 * package's build script; a test checks that it equals what a session's registry lists.
 */
import { writeFileSync } from 'node:fs';
import { approveAll, builtinSurfaces } from '@agent-tools/core';
import { mcpTool } from '@agent-tools/mcp';
import { assemble } from '../assemble.js';
import { evalPresent } from '../plugins/presence.js';
import { MANIFEST_FILE, type ManifestEntry } from './tool-manifest.js';

// Every package's tools are listed wherever the build runs; the server filters by what exists where it serves.
process.env['AGENT_TOOLS_VIBE'] = '1';
if (!evalPresent()) process.env['AGENT_TOOLS_JUPYTER_URL'] = 'http://127.0.0.1:9';

const surface = builtinSurfaces['default'];
if (!surface) throw new Error('no default surface');
const registry = await assemble({ cwd: process.cwd(), approve: approveAll, surface, fileTools: true });
try {
  const entries: ManifestEntry[] = registry.tools(surface).map((tool) => ({ tier: tool.tier, tool: mcpTool(tool) }));
  writeFileSync(MANIFEST_FILE, `${JSON.stringify(entries, null, 1)}\n`);
} finally {
  await registry.dispose();
}
