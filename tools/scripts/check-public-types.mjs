#!/usr/bin/env node
// Fails when a declaration file reachable from a package's published entry points imports a module its users
// should not need types of (`web-tree-sitter` drags in Emscripten globals, `@jupyterlab/services` drags in React's
// types): with `skipLibCheck: false` their projects would no longer compile. Usage, in a package folder:
//   node ../../tools/scripts/check-public-types.mjs web-tree-sitter @jupyterlab/services
// Mark what leaks `@internal` (the package builds with `stripInternal`), or keep the type in a file that does not
// import the module.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const forbidden = process.argv.slice(2);
const manifest = JSON.parse(readFileSync('package.json', 'utf8'));
const entries = Object.values(manifest.exports ?? {})
  .map((target) => (typeof target === 'object' ? target.types : undefined))
  .filter(Boolean)
  .map((file) => resolve(file));

const seen = new Map(); // file -> the file that imported it
const queue = entries.map((file) => [file, undefined]);
const problems = [];
while (queue.length > 0) {
  const [file, from] = queue.shift();
  if (seen.has(file) || !existsSync(file)) continue;
  seen.set(file, from);
  const text = readFileSync(file, 'utf8');
  for (const [, specifier] of text.matchAll(/(?:from|import\()\s*['"]([^'"]+)['"]/g)) {
    if (specifier.startsWith('.')) {
      queue.push([resolve(dirname(file), specifier.replace(/\.js$/, '.d.ts')), file]);
    } else if (forbidden.some((name) => specifier === name || specifier.startsWith(`${name}/`))) {
      const chain = [];
      for (let at = file; at; at = seen.get(at)) chain.push(relative('.', at));
      problems.push(`${specifier} is imported by ${chain.join(' <- ')}`);
    }
  }
}
if (entries.length === 0 || seen.size === 0) {
  console.error(`check-public-types: no declaration files found from ${join(process.cwd(), 'package.json')}; build first.`);
  process.exit(1);
}
if (problems.length > 0) {
  console.error(`The published types reach modules their users should not need (${forbidden.join(', ')}):`);
  for (const problem of problems) console.error(`  ${problem}`);
  console.error('Mark the member or function that leaks it @internal, or move the type to a file without that import.');
  process.exit(1);
}
