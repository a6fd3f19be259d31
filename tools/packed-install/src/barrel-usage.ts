import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, workspacePackages } from './workspace.js';

/** An entry point made of re-exports (`export { … } from './x.js'`), and the names it re-exports. */
export interface Barrel {
  /** The import specifier: `@agent-tools/core/internal`. */
  readonly spec: string;
  /** The package's folder, relative to the repository root: `packages/core`. */
  readonly folder: string;
  readonly names: readonly string[];
  /** The names re-exported as types only (`type X`, `export type { … }`). */
  readonly types: readonly string[];
  /** The declaration files (built) of the modules it re-exports from. */
  readonly declarations: readonly string[];
}

const RE_EXPORT = /export\s+(type\s+)?\{([^}]*)\}\s*from\s*'([^']+)'/g;

/** Every entry point of every published package whose source re-exports names (a module of its own does not count). */
export function barrels(): Barrel[] {
  return workspacePackages().flatMap((pkg) => {
    const exports = (pkg.manifest['exports'] ?? {}) as Record<string, string | { default?: string }>;
    return Object.entries(exports).flatMap(([key, target]) => {
      const built = typeof target === 'string' ? target : (target.default ?? '');
      const source = join(ROOT, 'packages', pkg.dir, built.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts'));
      if (!built.endsWith('.js') || !existsSync(source)) return [];
      const statements = [...readFileSync(source, 'utf8').matchAll(RE_EXPORT)];
      const names = namesIn(statements.map((m) => m[2] ?? ''));
      const types = statements.flatMap((m) => {
        const items = (m[2] ?? '').split(',').map((item) => item.trim());
        return namesIn(m[1] ? items : items.filter((item) => item.startsWith('type ')));
      });
      const folder = `packages/${pkg.dir}`;
      const declarations = statements.map((m) => join(folder, 'dist', (m[3] ?? '').replace(/\.js$/, '.d.ts')));
      return names.length === 0 ? [] : [{ spec: `${pkg.name}${key.slice(1)}`, folder, names, types, declarations }];
    });
  });
}

/** The names of a `{ a, type B, c as d }` list as importers see them. */
function namesIn(lists: readonly string[]): string[] {
  return lists
    .flatMap((list) => list.split(','))
    .map((item) => item.trim().replace(/^type\s+/, ''))
    .filter((item) => item !== '')
    .map((item) => (item.split(/\s+as\s+/).at(-1) ?? item).trim());
}

/**
 * Tests and their support code: a name only they use is not API. test-utils counts as a consumer: it is the kit a
 * package author tests a factory with (the factory contract), through the packages' entries.
 */
function isTestFile(path: string): boolean {
  return /(^|\/)(test|tests|__snapshots__|fixtures)\//.test(path) || /\.test\.[cm]?[jt]sx?$/.test(path) || path.startsWith('tools/packed-install/');
}

let tracked: string[] | undefined;
function trackedFiles(): string[] {
  tracked ??= execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter((path) => path !== '' && existsSync(join(ROOT, path)));
  return tracked;
}

const texts = new Map<string, string>();
function text(path: string): string {
  let content = texts.get(path);
  if (content === undefined) {
    content = readFileSync(join(ROOT, path), 'utf8');
    texts.set(path, content);
  }
  return content;
}

/** The names other code imports (or re-exports) from `spec`, in every non-test source outside the barrel's package. */
function importedNames(barrel: Barrel): Set<string> {
  const quoted = barrel.spec.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const statement = new RegExp(`(?:import|export)\\s+(?:type\\s+)?\\{([^}]*)\\}\\s*from\\s*['"]${quoted}['"]`, 'g');
  const names = new Set<string>();
  for (const path of trackedFiles()) {
    if (!/\.[cm]?[jt]sx?$/.test(path) || isTestFile(path) || path.startsWith(`${barrel.folder}/`)) continue;
    for (const match of text(path).matchAll(statement)) {
      // `a as b` imports the barrel's `a`.
      for (const item of (match[1] ?? '').split(',')) {
        const name = item.trim().replace(/^type\s+/, '').split(/\s+as\s+/)[0]?.trim();
        if (name) names.add(name);
      }
    }
  }
  return names;
}

/** Code spans and fenced blocks of every README and guide (changesets and changelogs record history, not API). */
function documentedCode(): string {
  return trackedFiles()
    .filter((path) => path.endsWith('.md') && !path.startsWith('.changeset/') && !path.endsWith('CHANGELOG.md') && !isTestFile(path))
    .map((path) => [...text(path).matchAll(/```[\s\S]*?```|`[^`\n]+`/g)].map((m) => m[0]).join('\n'))
    .join('\n');
}

/** How often `name` occurs as a whole word in `text`. */
function occurrences(text: string, name: string): number {
  return text.match(new RegExp(`(?<![\\w$])${name.replace(/\$/g, '\\$')}(?![\\w$])`, 'g'))?.length ?? 0;
}

/**
 * The names of a barrel that no other package, tool or benchmark imports from it and no README shows in code: used
 * by nothing, or by tests only. A type also counts as used when the declarations the barrel re-exports name it
 * besides declaring it (a parameter or a result of an export: a harness must be able to name it).
 */
export function unusedBarrelExports(barrel: Barrel): string[] {
  const imported = importedNames(barrel);
  const docs = documentedCode();
  const declared = barrel.declarations.map((path) => (existsSync(join(ROOT, path)) ? text(path) : '')).join('\n');
  const inSignature = (name: string): boolean =>
    barrel.types.includes(name) && occurrences(declared, name) > occurrences(declared, `(?:interface|type|class|enum) ${name}`);
  return barrel.names.filter((name) => !imported.has(name) && occurrences(docs, name) === 0 && !inSignature(name));
}
