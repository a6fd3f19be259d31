import { mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);

/** The real lint configurations of test/fixtures/lint (see SOURCES.md there). */
export const ESLINT_CONFIG = readFileSync(join(here, 'fixtures', 'lint', 'eslint.config.mjs'), 'utf8');
/** A TypeScript project (NodeNext, strict, `src/`) linted by {@link ESLINT_CONFIG}: the base the ESLint tests add sources to. */
export const ESLINT_PROJECT = {
  'package.json': '{"type":"module"}',
  'tsconfig.json': JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true }, include: ['src'] }),
  'eslint.config.mjs': ESLINT_CONFIG,
};
export const BIOME_CONFIG = readFileSync(join(here, 'fixtures', 'lint', 'ultracite-core.biome.jsonc'), 'utf8');
/** A TypeScript project (NodeNext, strict, `src/`) whose `biome.jsonc` extends {@link BIOME_CONFIG}, as ultracite's users do. */
export const BIOME_PROJECT = {
  'package.json': '{"type":"module"}',
  '.gitignore': 'node_modules\n',
  'tsconfig.json': ESLINT_PROJECT['tsconfig.json'],
  'ultracite-core.biome.jsonc': BIOME_CONFIG,
  'biome.jsonc': '{ "extends": ["./ultracite-core.biome.jsonc"] }\n',
};

/** The folder of a package installed beside @agent-tools/lsp (a devDependency). */
export function packageDir(name: string): string {
  return dirname(require.resolve(`${name}/package.json`));
}

/**
 * Gives a temp project its own node_modules, as an installed project has them: each package linked under its name
 * (`as` renames, so the aliased `ultracite-biome` becomes the project's `@biomejs/biome`), and `.bin` entries.
 */
export function linkPackages(root: string, packages: Record<string, string>, bins: Record<string, string> = {}): void {
  for (const [as, name] of Object.entries(packages)) {
    const target = join(root, 'node_modules', as);
    mkdirSync(dirname(target), { recursive: true });
    symlinkSync(packageDir(name), target, 'dir');
  }
  for (const [bin, relative] of Object.entries(bins)) {
    mkdirSync(join(root, 'node_modules', '.bin'), { recursive: true });
    symlinkSync(join(root, 'node_modules', relative), join(root, 'node_modules', '.bin', bin));
  }
}

/** What an ESLint project of the fixture config needs: eslint, and typescript-eslint's parser and plugin. */
export const ESLINT_PACKAGES = {
  eslint: 'eslint',
  '@typescript-eslint/parser': '@typescript-eslint/parser',
  '@typescript-eslint/eslint-plugin': '@typescript-eslint/eslint-plugin',
  typescript: 'typescript',
};
