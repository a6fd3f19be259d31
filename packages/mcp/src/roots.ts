import { realpathSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { isWithin } from '@agent-tools/core/internal';
import { McpServerError } from './errors.js';
import type { McpSessionContext } from './session.js';

/** Where a session's working directory may come from. */
export interface SessionDirectoryOptions {
  /** The server's own working directory: the session's when roots are not used. */
  readonly cwd: string;
  /** Client roots inside this directory (symbolic links resolved) may become the working directory; without it roots are ignored. */
  readonly rootsBase?: string;
}

/**
 * The working directory of a session: the client's first root when the operator allowed roots under a base and the
 * root lies inside it, else the server's directory. A root outside the base (or one that is not a local directory)
 * is refused rather than quietly replaced, so the client's user learns why the tools do not see their project.
 */
export async function sessionDirectory(session: Pick<McpSessionContext, 'listRoots'>, options: SessionDirectoryOptions): Promise<string> {
  if (options.rootsBase === undefined) return options.cwd;
  const [root] = await session.listRoots();
  if (!root) return options.cwd;
  const base = realpathSync(options.rootsBase);
  let path: string;
  try {
    path = realpathSync(fileURLToPath(root.uri));
  } catch {
    // fileURLToPath and realpath raise only TypeError (not a file URI) or file-system errors: the root is refused.
    throw new McpServerError('root_refused', `The client's root ${root.uri} is not a local directory that exists, so it cannot be the working directory.`, {
      hint: `Open a folder inside ${base} in the client, or connect without roots to work in ${options.cwd}.`,
    });
  }
  if (!isWithin(base, path) || !statSync(path).isDirectory()) {
    throw new McpServerError('root_refused', `The client's root ${root.uri} is outside ${base}, the only directory this server accepts roots under.`, {
      hint: `Open a folder inside ${base} in the client, or ask the operator to start the server with a wider --roots-under.`,
    });
  }
  return path;
}
