import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { copyCorpus } from '../corpus.js';
import { unpackArchive } from './unpack.js';

const require = createRequire(import.meta.url);
const npm = (name: string, ...sub: string[]): string => join(dirname(require.resolve(`${name}/package.json`)), ...sub);

/** Real code for one language: folders of an installed Debian or npm package (see apt-packages.txt, package.json). */
export interface Corpus {
  readonly language: string;
  /** What ships it, for the report. */
  readonly from: string;
  readonly sources: readonly string[];
  /** Zip archives (jars) whose files are taken, after the sources, as if they were folders. */
  readonly archives?: readonly string[];
  readonly accept: (name: string) => boolean;
  /** The extension the copies get (bash completions have none). */
  readonly rename?: string;
  /** Go packages keep their fixtures in `testdata` folders, which are skipped otherwise (HCL's are its only files). */
  readonly testdata?: boolean;
  /**
   * Folders of tree-sitter test corpus files (`test/corpus/*.txt`) whose cases are written out one file each,
   * after the sources (Dart, Elixir, Nix: no npm or Debian package here ships much of their code), subfolders
   * included. Cases that expect a syntax error are left out.
   */
  readonly cases?: { readonly dir: string; readonly extension: string };
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
  {
    language: 'csharp',
    from: 'npm edge-js and @autorest/csharp, Debian swig4.0-examples',
    sources: [npm('edge-js', 'src'), npm('@autorest/csharp'), '/usr/share/doc/swig4.0-examples/Examples'],
    accept: ext('.cs', '.cs.gz'),
  },
  {
    language: 'dart',
    from: "npm flutter-skill and tree-sitter-dart (its examples, then its test corpus's cases)",
    sources: [npm('flutter-skill', 'dart'), npm('tree-sitter-dart')],
    accept: ext('.dart'),
    cases: { dir: npm('tree-sitter-dart', 'test', 'corpus'), extension: 'dart' },
  },
  {
    language: 'elixir',
    from: "npm tree-sitter-elixir 0.1.1 (its highlight and tags examples, then its test corpus's cases)",
    sources: [npm('tree-sitter-elixir-corpus', 'test')],
    accept: ext('.ex', '.exs'),
    cases: { dir: npm('tree-sitter-elixir-corpus', 'test', 'corpus'), extension: 'ex' },
  },
  {
    language: 'haskell',
    from: "Debian hugs's bundled libraries (parsec, mtl, fgl, QuickCheck, base)",
    sources: ['parsec', 'mtl', 'fgl', 'QuickCheck', 'base'].map((p) => `/usr/lib/hugs/packages/${p}`),
    accept: ext('.hs'),
  },
  {
    language: 'nix',
    from: "npm nijs (NiJS's Nix expressions), then tree-sitter-nix 0.0.2 (its highlight example, then its test corpus's cases)",
    sources: [npm('nijs'), npm('tree-sitter-nix', 'test')],
    accept: ext('.nix'),
    cases: { dir: npm('tree-sitter-nix', 'corpus'), extension: 'nix' },
  },
  {
    language: 'scala',
    from: "Debian plm (the Scala lessons inside its jar), npm tree-sitter-scala 0.19.0's examples (from scalac)",
    sources: [npm('tree-sitter-scala-examples', 'examples')],
    archives: ['/usr/share/java/plm.jar'],
    accept: ext('.scala'),
  },
  {
    language: 'css',
    from: 'Debian libjs-jquery-ui (its themes)',
    sources: ['/usr/share/javascript/jquery-ui/themes/base'],
    accept: (name) => name.endsWith('.css') && !name.endsWith('.min.css'),
  },
  {
    language: 'hcl',
    from: 'Debian golang-github-hashicorp-hcl-v2-dev (the HCL files of its tests)',
    sources: ['/usr/share/gocode/src/github.com/hashicorp/hcl/v2'],
    accept: ext('.hcl'),
    testdata: true,
  },
  { language: 'html', from: 'Debian swig4.0-examples (its example pages)', sources: ['/usr/share/doc/swig4.0-examples/Examples'], accept: ext('.html') },
  { language: 'php', from: 'Debian swig4.0-examples (the PHP examples and test runners)', sources: ['/usr/share/doc/swig4.0-examples/Examples'], accept: ext('.php') },
  {
    language: 'markdown',
    from: 'npm READMEs (zod, @openzeppelin/contracts, Capacitor plugins)',
    sources: [npm('zod'), npm('@openzeppelin/contracts'), ...['@capacitor/geolocation', '@capacitor/local-notifications', '@capacitor/background-runner', '@capacitor/camera', '@capacitor/google-maps'].map((p) => npm(p))],
    accept: ext('.md'),
  },
  { language: 'solidity', from: 'npm @openzeppelin/contracts', sources: [npm('@openzeppelin/contracts')], accept: ext('.sol') },
  { language: 'yaml', from: "Debian ruby (the rbs gem's manifests and configuration)", sources: ['/usr/lib/ruby/gems/3.1.0/gems/rbs-2.1.0'], accept: ext('.yaml', '.yml') },
  { language: 'go', from: 'Debian golang-go (the standard library)', sources: ['/usr/lib/go/src/strings', '/usr/lib/go/src/bufio', '/usr/lib/go/src/net/url', '/usr/lib/go/src/encoding/json'], accept: ext('.go') },
  { language: 'java', from: 'npm @capacitor/android', sources: [npm('@capacitor/android')], accept: ext('.java') },
  { language: 'javascript', from: 'npm zod (its compiled JavaScript)', sources: [npm('zod', 'v4', 'classic')], accept: ext('.js') },
  { language: 'json', from: 'npm package manifests', sources: [npm('zod'), npm('tree-sitter-go'), npm('@capacitor/android')], accept: ext('.json') },
  {
    language: 'kotlin',
    from: 'npm @react-native/gradle-plugin and Capacitor plugins',
    sources: ['@react-native/gradle-plugin', '@capacitor/local-notifications', '@capacitor/background-runner', '@capacitor/google-maps', '@capacitor/camera', '@capacitor/geolocation'].map((p) => npm(p)),
    accept: ext('.kt', '.kts'),
  },
  { language: 'lua', from: 'Debian lua-penlight', sources: ['/usr/share/lua/5.1/pl'], accept: ext('.lua') },
  { language: 'python', from: 'Debian python3 (the standard library)', sources: ['/usr/lib/python3.11/json', '/usr/lib/python3.11/email', '/usr/lib/python3.11/logging'], accept: ext('.py') },
  { language: 'ruby', from: 'Debian ruby (the standard library)', sources: ['/usr/lib/ruby/3.1.0/net', '/usr/lib/ruby/3.1.0/uri'], accept: ext('.rb') },
  { language: 'rust', from: 'Debian librust-regex-dev', sources: ['/usr/share/cargo/registry/regex-1.7.1/src'], accept: ext('.rs') },
  {
    language: 'swift',
    from: 'npm @capacitor/ios and Capacitor plugins',
    sources: ['@capacitor/ios', '@capacitor/background-runner', '@capacitor/google-maps', '@capacitor/camera', '@capacitor/geolocation', '@capacitor/local-notifications'].map((p) => npm(p)),
    accept: ext('.swift'),
  },
  { language: 'tsx', from: 'npm @tanstack/react-query', sources: [npm('@tanstack/react-query', 'src')], accept: ext('.tsx') },
  { language: 'typescript', from: 'npm zod (its TypeScript sources)', sources: [npm('zod', 'src', 'v4', 'classic')], accept: (n) => n.endsWith('.ts') && !n.endsWith('.d.ts') },
];

/**
 * Copies a corpus into `to`: its sources' files in order, then its test cases, `limit` files in all (or `limit`
 * per source with `perSource`). Returns the paths written.
 */
export function collectCorpus(corpus: Corpus, to: string, limit: number, { perSource = false } = {}): string[] {
  const files: string[] = [];
  for (const source of corpus.sources) {
    const left = perSource ? limit : limit - files.length;
    if (left <= 0) break;
    const base = `s${files.length}-${source.split('/').filter(Boolean).pop() ?? 'src'}`;
    files.push(
      ...copyCorpus(source, join(to, base), corpus.accept, {
        limit: left,
        ...(corpus.rename ? { rename: corpus.rename } : {}),
        ...(corpus.testdata ? { testdata: true } : {}),
      }),
    );
  }
  for (const archive of corpus.archives ?? []) {
    const left = perSource ? limit : limit - files.length;
    if (left <= 0) break;
    const unpacked = unpackArchive(archive);
    try {
      const base = `a${files.length}-${archive.split('/').pop() ?? 'archive'}`;
      files.push(...copyCorpus(unpacked, join(to, base), corpus.accept, { limit: left }));
    } finally {
      rmSync(unpacked, { recursive: true, force: true });
    }
  }
  if (corpus.cases) files.push(...writeCases(corpus.cases.dir, join(to, 'cases'), corpus.cases.extension, perSource ? limit : limit - files.length));
  return files;
}

const RULE = /^={3,}\s*$/;
const DIVIDER = /^-{3,}\s*$/;

/** Writes each case of a folder of tree-sitter corpus files (`== name ==`, code, `---`, expected tree) as a file. */
function writeCases(dir: string, to: string, extension: string, limit: number): string[] {
  const out: string[] = [];
  const names = (readdirSync(dir, { recursive: true }) as string[]).filter((n) => n.endsWith('.txt')).sort();
  for (const name of names) {
    const lines = readFileSync(join(dir, name), 'utf8').split('\n');
    for (let i = 0; i < lines.length && out.length < limit; i++) {
      if (!RULE.test(lines[i] as string)) continue;
      let j = i + 1;
      while (j < lines.length && !RULE.test(lines[j] as string)) j++;
      const title = lines.slice(i + 1, j).join(' ');
      const code: string[] = [];
      let k = j + 1;
      for (; k < lines.length && !DIVIDER.test(lines[k] as string); k++) code.push(lines[k] as string);
      let end = k + 1;
      while (end < lines.length && !(RULE.test(lines[end] as string) && end + 2 < lines.length)) end++;
      const expected = lines.slice(k + 1, end).join('\n');
      i = end - 1;
      if (title.includes(':error') || /\b(ERROR|MISSING)\b/.test(expected) || !code.join('').trim()) continue;
      mkdirSync(to, { recursive: true });
      const file = join(to, `${name.replace(/\.txt$/, '').replaceAll('/', '-')}-${out.length}.${extension}`);
      writeFileSync(file, `${code.join('\n').trim()}\n`);
      out.push(file);
    }
  }
  return out;
}
