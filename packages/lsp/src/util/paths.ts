import { sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

// One helper for a path as the model reads it, and one for "inside the working directory": core's, so a path
// reads the same in every package's answers.
export { displayPath } from '@agent-tools/core';
export { isWithin as isInside } from '@agent-tools/core/internal';

/**
 * A message as a model reads it: absolute paths inside the working directory made relative, and the temporary
 * siblings of an all-or-nothing write named after the file they stand for.
 */
export function relativeText(text: string, cwd: string): string {
  const prefix = cwd.endsWith(sep) ? cwd : `${cwd}${sep}`;
  return text
    .split(prefix)
    .join('')
    .replace(/(^|[\s'"(/])\.([^/\s'"]+)\.agent-tools-[0-9a-f]+\.tmp/g, '$1$2 (its temporary copy)');
}

/** The `file://` URI of an absolute path. */
export function toUri(path: string): string {
  return pathToFileURL(path).href;
}

/** The absolute path of a `file://` URI; undefined for other schemes or malformed URIs. */
export function fromUri(uri: string): string | undefined {
  if (!uri.startsWith('file:')) return undefined;
  try {
    return fileURLToPath(uri);
  } catch {
    // fileURLToPath raises only TypeError, for a URI that is not a local file path.
    return undefined;
  }
}
