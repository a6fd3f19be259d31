import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Unpacks a zip archive (a jar) into a new temporary folder and returns it: some Debian packages ship their code only
 * inside a jar (plm's Scala lessons). Debian's python3 (in apt-packages.txt) reads zips; Node has no zip reader.
 */
export function unpackArchive(archive: string): string {
  if (!existsSync(archive)) {
    throw new Error(`The agreement corpus ${archive} is missing on this machine; install the package that provides it (see apt-packages.txt).`);
  }
  const to = mkdtempSync(join(tmpdir(), 'ast-corpus-archive-'));
  execFileSync('/usr/bin/python3', ['-m', 'zipfile', '-e', archive, to], { timeout: 60_000, stdio: 'ignore' });
  return to;
}
