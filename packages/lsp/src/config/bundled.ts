import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { ResolvedCommand } from '../discovery/binary.js';

const require = createRequire(import.meta.url);

/**
 * A Node program from a package resolvable from @agent-tools/lsp (a dependency, or an optional peer the harness
 * installed), run under the harness's own Node: its shebang would pick whichever `node` is first on the search
 * path, which may be too old.
 */
export function bundledNodeBin(pkg: string, bin: string): () => ResolvedCommand | undefined {
  return () => {
    const manifestPath = resolvePackageJson(pkg);
    if (!manifestPath) return undefined;
    try {
      const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { version?: string; bin?: string | Record<string, string> };
      const relative = typeof manifest.bin === 'string' ? manifest.bin : manifest.bin?.[bin];
      if (!relative) return undefined;
      const script = join(dirname(manifestPath), relative);
      return {
        command: process.execPath,
        prefixArgs: [script],
        source: 'bundled',
        display: `${bin} from ${pkg}${manifest.version ? ` ${manifest.version}` : ''} (installed with @agent-tools/lsp)`,
      };
    } catch {
      // A missing or unreadable package manifest (file-system or JSON errors only): nothing bundled.
      return undefined;
    }
  };
}

/** The tsserver.js of the typescript package installed with @agent-tools/lsp, if any. */
export function bundledTsserver(): string | undefined {
  const manifest = resolvePackageJson('typescript');
  return manifest ? join(dirname(manifest), 'lib', 'tsserver.js') : undefined;
}

function resolvePackageJson(pkg: string): string | undefined {
  try {
    return require.resolve(`${pkg}/package.json`);
  } catch {
    // require.resolve raises only MODULE_NOT_FOUND: the package is not installed.
    return undefined;
  }
}
