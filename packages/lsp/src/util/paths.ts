import { relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** A path as a model reads it: relative to the working directory with forward slashes, absolute outside it. */
export function displayPath(file: string, cwd: string): string {
  const rel = relative(cwd, file);
  if (rel === '') return '.';
  if (rel.startsWith('..') || rel.startsWith(sep) || /^[a-zA-Z]:/.test(rel)) return file;
  return sep === '/' ? rel : rel.split(sep).join('/');
}

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

/** Whether a path lies inside the working directory (lexically). */
export function isInside(cwd: string, file: string): boolean {
  const rel = relative(cwd, file);
  return rel === '' || (!rel.startsWith('..') && !rel.startsWith(sep) && !/^[a-zA-Z]:/.test(rel));
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
    return undefined;
  }
}
