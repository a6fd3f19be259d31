import { readFileSync } from 'node:fs';
import type { Surface, Tier } from '@agent-tools/core';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { catalog } from '../plugins/catalog.js';

/** One tool as the MCP server lists it, with its tier (to filter by surface). */
export interface ManifestEntry {
  readonly tier: Tier;
  readonly tool: Tool;
}

/**
 * The file the build writes (`write-manifest.ts`): every tool of every package and the harness's file tools as
 * `tools/list` shows them on the default surface, in the registry's order, each package's resources present.
 */
export const MANIFEST_FILE = new URL('../tool-manifest.json', import.meta.url);

/** The harness's own tools (`--file-tools`). */
const FILE_TOOLS = ['read', 'write', 'edit'];

/**
 * The `tools/list` answer of a session, from the manifest and without loading any package: the tools the surface
 * admits, of the packages whose resources exist here (`present`), and the file tools when asked for. `undefined`
 * when there is no manifest (a build without it): the session then lists from its assembled registry.
 */
export function staticToolList(surface: Surface, fileTools: boolean, file: URL = MANIFEST_FILE): Tool[] | undefined {
  let entries: ManifestEntry[];
  try {
    entries = JSON.parse(readFileSync(file, 'utf8')) as ManifestEntry[];
  } catch {
    // A missing or malformed manifest (file-system or JSON errors only): tools/list loads the plugins instead.
    return undefined;
  }
  return entries
    .filter(({ tier, tool }) => {
      if (!surface.tiers.includes(tier)) return false;
      if (FILE_TOOLS.includes(tool.name)) return fileTools;
      const entry = catalog.find((candidate) => candidate.tools.includes(tool.name));
      return entry ? (entry.present?.() ?? true) : false;
    })
    .map(({ tool }) => tool);
}
