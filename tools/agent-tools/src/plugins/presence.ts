import { existsSync } from 'node:fs';
import { SYSTEM_PYTHON } from '../python-modules.js';

/**
 * Whether a package's resources exist on this machine, decided without loading the package (the MCP server lists
 * tools before it loads any): the plugins decide with these same checks when they are loaded.
 */

/** Whether vibe mode is on (`AGENT_TOOLS_VIBE`): vibe's tools exist only then. */
export function vibeMode(): boolean {
  return ['1', 'true', 'on', 'yes'].includes((process.env['AGENT_TOOLS_VIBE'] ?? '').toLowerCase());
}

/** The Jupyter server of an isolated environment, when the harness runs in one (`AGENT_TOOLS_JUPYTER_URL`). */
export function jupyterUrlFromEnv(): string | undefined {
  return process.env['AGENT_TOOLS_JUPYTER_URL']?.trim() || undefined;
}

/** Whether eval has a kernel to run: an isolated environment's server, or Debian's Python. */
export function evalPresent(): boolean {
  return jupyterUrlFromEnv() !== undefined || existsSync(SYSTEM_PYTHON);
}
