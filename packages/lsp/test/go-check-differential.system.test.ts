import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { seededRandom } from '@agent-tools/test-utils';
import { describe, expect, it } from 'vitest';
import { startRun } from './helpers.js';

// Go's whole-project check against go/types itself: real packages from Go's own sources (as Debian installs them)
// copied into one module, type errors made in them at random places (fixed seed): an identifier in a function body
// renamed to one that is not declared, or a declaration of the wrong type appended. The oracle is gotype (go/types'
// own command, `-e`: every error) run on each package; what `lsp diagnostics "*"` lists as errors must be exactly
// what it reports.
const SEED = 6021;
const MUTATIONS = 24;
const GOROOT_SRC = '/usr/lib/go/src';
const PACKAGES = ['encoding/csv', 'encoding/json', 'encoding/xml', 'text/tabwriter', 'text/template/parse', 'net/url', 'mime/quotedprintable', 'container/list'];
const GOTYPE = join(GOROOT_SRC, 'go/types/gotype.go');

/** gotype's errors of one package directory, as `dir/file.go:line:column: message`. */
function gotypeErrors(root: string, dir: string): string[] {
  const run = spawnSync('go', ['run', GOTYPE, '-e', dir], { cwd: root, encoding: 'utf8', timeout: 120_000, env: { ...process.env, GOTOOLCHAIN: 'local', GOFLAGS: '-mod=mod' } });
  return `${run.stdout}\n${run.stderr}`
    .split('\n')
    .filter((line) => /^\S+\.go:\d+:\d+: /.test(line))
    .map((line) => (line.startsWith(`${dir}/`) ? line : `${dir}/${line}`));
}

describe('Go whole-project check against go/types (gotype -e), generated type errors in real code', () => {
  it(`${MUTATIONS} type errors in ${PACKAGES.length} packages of Go's own sources: the same errors, no more, no fewer`, { timeout: 600_000 }, async () => {
    await using run = startRun({ 'go.mod': 'module example.com/real\n\ngo 1.19\n' });
    const files: string[] = [];
    for (const pkg of PACKAGES) {
      const dir = pkg.replaceAll('/', '_');
      mkdirSync(run.dir.join(dir), { recursive: true });
      for (const name of readdirSync(join(GOROOT_SRC, pkg)).filter((f) => f.endsWith('.go') && !f.endsWith('_test.go'))) {
        cpSync(join(GOROOT_SRC, pkg, name), run.dir.join(dir, name));
        files.push(`${dir}/${name}`);
      }
    }
    const next = seededRandom(SEED);
    const made: string[] = [];
    for (let k = 0; k < MUTATIONS; k++) {
      const file = files[Math.floor(next() * files.length)] as string;
      const path = run.dir.join(file);
      const lines = readFileSync(path, 'utf8').split('\n');
      // Lines inside function bodies that use an identifier (not a comment, not a declaration's own name).
      const candidates = lines.flatMap((line, index) => (/^\t+[^/\s]/.test(line) && /\b[a-z][A-Za-z0-9]*\b/.test(line.replace(/"[^"]*"/g, '')) ? [index] : []));
      if (next() < 0.5 && candidates.length > 0) {
        const index = candidates[Math.floor(next() * candidates.length)] as number;
        const line = lines[index] as string;
        const words = [...line.matchAll(/\b[a-z][A-Za-z0-9]*\b/g)].filter((m) => !GO_KEYWORDS.has(m[0]) && !insideString(line, m.index ?? 0));
        if (words.length === 0) continue;
        const word = words[Math.floor(next() * words.length)] as RegExpMatchArray;
        const at = word.index ?? 0;
        lines[index] = `${line.slice(0, at)}probeUndefined${k}${line.slice(at + word[0].length)}`;
        made.push(`${file}:${index + 1}: ${word[0]} -> probeUndefined${k}`);
      } else {
        lines.push(`var probeWrong${k} int = "probe ${k}"`, '');
        made.push(`${file}: appended probeWrong${k}`);
      }
      writeFileSync(path, lines.join('\n'));
    }

    const oracle = PACKAGES.flatMap((pkg) => gotypeErrors(run.dir.path, pkg.replaceAll('/', '_'))).sort();
    expect(oracle.length, made.join('\n')).toBeGreaterThanOrEqual(MUTATIONS / 2);
    const result = await run.lsp({ action: 'diagnostics', file: '*' });
    const ours = (result.structured as { diagnostics: Array<{ file: string; line: number; column?: number; severity: string; message: string }> }).diagnostics
      .filter((d) => d.severity === 'error')
      .map((d) => `${d.file}:${d.line}:${d.column}: ${d.message}`)
      .sort();
    expect(ours, made.join('\n')).toEqual(oracle);
  });
});

const GO_KEYWORDS = new Set(['break', 'case', 'chan', 'const', 'continue', 'default', 'defer', 'else', 'fallthrough', 'for', 'func', 'go', 'goto', 'if', 'import', 'interface', 'map', 'package', 'range', 'return', 'select', 'struct', 'switch', 'type', 'var']);

/** Whether offset `at` of a line is inside a string or rune literal, or a comment. */
function insideString(line: string, at: number): boolean {
  let quote: string | undefined;
  for (let i = 0; i < at; i++) {
    const c = line[i];
    if (quote) {
      if (c === '\\' && quote !== '`') i++;
      else if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'" || c === '`') quote = c;
    else if (c === '/' && line[i + 1] === '/') return true;
  }
  return quote !== undefined;
}
