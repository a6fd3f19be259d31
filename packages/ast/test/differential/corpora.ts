import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
const npm = (name: string, ...sub: string[]): string => join(dirname(require.resolve(`${name}/package.json`)), ...sub);

/** Real code for one language: folders of an installed Debian or npm package (see apt-packages.txt, package.json). */
export interface Corpus {
  readonly language: string;
  /** What ships it, for the report. */
  readonly from: string;
  readonly sources: readonly string[];
  readonly accept: (name: string) => boolean;
  /** The extension the copies get (bash completions have none). */
  readonly rename?: string;
}

const ext =
  (...exts: string[]) =>
  (name: string): boolean =>
    exts.some((e) => name.endsWith(e));

/** One corpus per language both we and ast-grep support. */
export const CORPORA: readonly Corpus[] = [
  {
    language: 'bash',
    from: 'Debian bash-completion (its own scripts: bash_completion and the _-prefixed completions)',
    // Only the package's own files: other packages add completions, which would make the sample machine-dependent.
    sources: ['/usr/share/bash-completion'],
    accept: (name) => name === 'bash_completion' || name.startsWith('_'),
    rename: '.sh',
  },
  { language: 'c', from: 'Debian golang-go (runtime/cgo)', sources: ['/usr/lib/go/src/runtime/cgo'], accept: ext('.c', '.h') },
  { language: 'cpp', from: 'Debian nlohmann-json3-dev', sources: ['/usr/include/nlohmann'], accept: ext('.hpp') },
  { language: 'csharp', from: 'npm edge-js', sources: [npm('edge-js', 'src')], accept: ext('.cs') },
  { language: 'dart', from: 'npm tree-sitter-dart (its Dart examples)', sources: [npm('tree-sitter-dart')], accept: ext('.dart') },
  { language: 'go', from: 'Debian golang-go (the standard library)', sources: ['/usr/lib/go/src/strings', '/usr/lib/go/src/bufio', '/usr/lib/go/src/net/url', '/usr/lib/go/src/encoding/json'], accept: ext('.go') },
  { language: 'java', from: 'npm @capacitor/android', sources: [npm('@capacitor/android')], accept: ext('.java') },
  { language: 'javascript', from: 'npm zod (its compiled JavaScript)', sources: [npm('zod', 'v4', 'classic')], accept: ext('.js') },
  { language: 'json', from: 'npm package manifests', sources: [npm('zod'), npm('tree-sitter-go'), npm('@capacitor/android')], accept: ext('.json') },
  { language: 'kotlin', from: 'npm @capacitor/camera and @capacitor/geolocation', sources: [npm('@capacitor/camera'), npm('@capacitor/geolocation')], accept: ext('.kt') },
  { language: 'lua', from: 'Debian lua-penlight', sources: ['/usr/share/lua/5.1/pl'], accept: ext('.lua') },
  { language: 'python', from: 'Debian python3 (the standard library)', sources: ['/usr/lib/python3.11/json', '/usr/lib/python3.11/email', '/usr/lib/python3.11/logging'], accept: ext('.py') },
  { language: 'ruby', from: 'Debian ruby (the standard library)', sources: ['/usr/lib/ruby/3.1.0/net', '/usr/lib/ruby/3.1.0/uri'], accept: ext('.rb') },
  { language: 'rust', from: 'Debian librust-regex-dev', sources: ['/usr/share/cargo/registry/regex-1.7.1/src'], accept: ext('.rs') },
  { language: 'swift', from: 'npm @capacitor/ios', sources: [npm('@capacitor/ios')], accept: ext('.swift') },
  { language: 'tsx', from: 'npm @tanstack/react-query', sources: [npm('@tanstack/react-query', 'src')], accept: ext('.tsx') },
  { language: 'typescript', from: 'npm zod (its TypeScript sources)', sources: [npm('zod', 'src', 'v4', 'classic')], accept: (n) => n.endsWith('.ts') && !n.endsWith('.d.ts') },
];
