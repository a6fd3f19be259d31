import { sep } from 'node:path';
import { displayPath, isInside } from '../util/paths.js';

/**
 * A path as the model reads it: workspace-relative inside the working directory; outside it, a short label naming
 * the package (or toolchain) and the path inside it (`typescript lib/lib.es2015.promise.d.ts`, `go net/http/server.go`,
 * `include stdio.h`), never an absolute path into the harness's own install, which the model cannot read anyway.
 */
export function pathLabel(path: string, cwd: string): string {
  if (isInside(cwd, path)) return displayPath(path, cwd);
  const posix = sep === '/' ? path : path.split(sep).join('/');
  return outsideLabel(posix);
}

const RULES: ReadonlyArray<(path: string) => string | undefined> = [
  // npm packages (pnpm's .pnpm store included): the last node_modules holds the package.
  (path) => {
    const at = path.lastIndexOf('/node_modules/');
    if (at < 0) return undefined;
    const parts = path.slice(at + '/node_modules/'.length).split('/');
    const name = parts[0]?.startsWith('@') ? parts.splice(0, 2).join('/') : parts.splice(0, 1)[0];
    return `${name} ${parts.join('/')}`;
  },
  // Go modules (`…/pkg/mod/github.com/x/y@v1.2.3/z.go`) and the standard library (`…/go-1.19/src/net/http/x.go`).
  (path) => {
    const mod = /\/pkg\/mod\/(.+?@[^/]+)\/(.+)$/.exec(path);
    if (mod) return `${mod[1]} ${mod[2]}`;
    const std = /\/go(?:-[\d.]+)?\/src\/(.+)$/.exec(path);
    return std ? `go ${std[1]}` : undefined;
  },
  // Python: installed packages, then the standard library and typeshed's stubs.
  (path) => {
    const site = /\/(?:site|dist)-packages\/(.+)$/.exec(path);
    if (site) return `python ${site[1]}`;
    const stubs = /\/typeshed[^/]*\/(?:stdlib|stubs)\/(.+)$/.exec(path);
    if (stubs) return `typeshed ${stubs[1]}`;
    const std = /\/lib\/(python3(?:\.\d+)?)\/(.+)$/.exec(path);
    return std ? `${std[1]} ${std[2]}` : undefined;
  },
  // C and C++ headers: the compiler's own, then the system's.
  (path) => {
    const clang = /\/clang\/[^/]+\/include\/(.+)$/.exec(path);
    if (clang) return `clang include ${clang[1]}`;
    const system = /^\/usr(?:\/local)?\/include\/(.+)$/.exec(path);
    return system ? `include ${system[1]}` : undefined;
  },
  // Rust's toolchain and crates.
  (path) => {
    const crate = /\/registry\/src\/[^/]+\/([^/]+)\/(.+)$/.exec(path);
    if (crate) return `${crate[1]} ${crate[2]}`;
    const std = /\/rustlib\/src\/rust\/library\/(.+)$/.exec(path);
    return std ? `rust ${std[1]}` : undefined;
  },
];

function outsideLabel(path: string): string {
  for (const rule of RULES) {
    const label = rule(path);
    if (label) return label;
  }
  // Elsewhere: the last folders and the file name, enough to recognise it without naming the machine's layout.
  const parts = path.split('/').filter(Boolean);
  return `…/${parts.slice(-3).join('/')}`;
}
