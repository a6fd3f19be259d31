import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Diagnostic } from '@agent-tools/core';
import { findBinary } from '../../discovery/binary.js';
import { listSourceFiles } from '../../discovery/root.js';
import { displayPath } from '../../util/paths.js';
import type { CheckerOutput, ProjectChecker } from '../checker.js';
import type { GoplsFinding } from './gopls-diagnose.js';

const MAX_FILES = 5000;
// go vet: `./a.go:5:13: message`, or `vet: ./a.go:...` for the type error it stopped at.
const VET_LINE = /^(vet: )?(\S[^:]*\.go):(\d+)(?::(\d+))?: (.*)$/;

/**
 * Go's whole-project check: `gopls check` over every Go file the module builds on this platform (as `go list ./...`
 * lists them, tests included) for the type errors (go/types reports
 * every one, in every package, where `go vet` and `go build` stop at the first broken package), then `go vet
 * ./...` for vet's own findings, reported as warnings. Verified only when both checks covered everything: vet
 * skips the packages that do not type-check.
 */
export const goChecker: ProjectChecker = {
  name: 'gopls check and go vet',
  plan({ root, cwd, path }) {
    const gopls = findBinary({ names: ['gopls'], root, cwd, path });
    if (!gopls.found) return { unavailable: `gopls was not found (looked in ${gopls.looked.join(', ')})` };
    const go = findBinary({ names: ['go'], root, cwd, path });
    if (!go.found) return { unavailable: `go was not found (looked in ${go.looked.join(', ')})` };
    const shell = findBinary({ names: ['sh'], root, cwd, path });
    if (!shell.found) return { unavailable: `sh was not found (looked in ${shell.looked.join(', ')})` };
    const { seen } = listSourceFiles(root, ['.go'], MAX_FILES);
    if (seen > MAX_FILES) return { unavailable: `the module has more than ${MAX_FILES} Go files` };
    // GOTOOLCHAIN=local: a check must never download a toolchain.
    const env = { GOTOOLCHAIN: 'local' };
    const where = displayPath(root, cwd);
    return {
      // gopls check gives up on every file when one is in no package (a build tag excludes it: `//go:build ignore`,
      // `x_windows.go` on Linux), so it is given exactly the files go list builds for this platform, tests included.
      command: shell.found,
      args: ['-c', LISTED_FILES_CHECK, 'sh', go.found.command, gopls.found.command, process.execPath, diagnoseScript()],
      env,
      title: `gopls check (every file go list ./... builds) and go vet ./... in ${where}`,
      followedBy: [{ command: go.found, args: ['vet', './...'], env, title: `go vet ./... in ${where}` }],
    };
  },
  parse(output, { root }) {
    return parseGoCheck(output, root);
  },
};

/**
 * `go list` writes the files of every package of the module (NUL-terminated; `-e` keeps packages with errors, and
 * each package's output ends with a newline), and gopls checks them through gopls-diagnose (`gopls check` with a
 * client that loses no answer); `$1` is go, `$2` gopls, `$3` node and `$4` the script. No temporary file: a check
 * stopped by its timeout leaves nothing behind. A go list that cannot list the module makes go vet fail the same
 * way, which fails the check.
 */
const LISTED_FILES_CHECK = [
  `"$1" list -e -f '{{range $f := .GoFiles}}{{$.Dir}}/{{$f}}{{"\\x00"}}{{end}}{{range $f := .CgoFiles}}{{$.Dir}}/{{$f}}{{"\\x00"}}{{end}}{{range $f := .TestGoFiles}}{{$.Dir}}/{{$f}}{{"\\x00"}}{{end}}{{range $f := .XTestGoFiles}}{{$.Dir}}/{{$f}}{{"\\x00"}}{{end}}' ./...`,
  `tr -d '\\n'`,
  '"$3" "$4" "$2"',
].join(' | ');

/** gopls-diagnose next to this module; the built one when running from TypeScript sources (the package's tests). */
function diagnoseScript(): string {
  const here = fileURLToPath(new URL('./gopls-diagnose.js', import.meta.url));
  if (existsSync(here)) return here;
  return fileURLToPath(new URL('../../../dist/project-check/checkers/gopls-diagnose.js', import.meta.url));
}

/**
 * Parses gopls-diagnose's findings followed by `go vet`'s output. gopls reports type errors (severity error) and
 * the findings of its analyzers, vet's among them (warnings, labelled with the analyzer: `printf`, `composites`); vet's
 * own lines at a position gopls reported are the same finding. vet cannot analyze a package that does not
 * type-check, so a check with type errors is complete for errors and incomplete for vet's findings.
 */
export function parseGoCheck(output: CheckerOutput, root: string): ReturnType<ProjectChecker['parse']> {
  const byPosition = new Map<string, Diagnostic>();
  const diagnostics: Diagnostic[] = [];
  for (const line of `${output.stdout}\n${output.stderr}`.split(/\r?\n/)) {
    if (/^gopls: /.test(line.trim())) return { failed: `gopls check failed: ${line.trim().slice(0, 400)}` };
    const finding = readFinding(line);
    if (!finding) continue;
    // Only gopls's errors are type errors: its analyzers (vet's, gofmt -s's `simplifyrange`) report warnings.
    const error = finding.severity === 1;
    const diagnostic: Diagnostic = {
      file: resolve(root, finding.file),
      line: finding.line,
      column: finding.column,
      severity: error ? 'error' : 'warning',
      message: finding.message,
      source: finding.source || 'gopls',
    };
    byPosition.set(`${diagnostic.file}:${diagnostic.line}:${diagnostic.column}`, diagnostic);
    diagnostics.push(diagnostic);
  }
  // gopls-diagnose exits 0 whenever it printed its findings: anything else (a crash, a kill, a missing script) printed
  // none, and vet alone would read as a complete check with its one type error as a warning.
  if (output.code !== 0) {
    const tail = `${output.stderr}\n${output.stdout}`.trim().slice(-400);
    return { failed: `gopls check exited with ${output.code === null ? 'a signal' : `code ${output.code}`}${tail ? `: ${tail}` : ''}` };
  }
  const vet = output.more?.[0];
  if (!vet) return { failed: 'go vet did not run' };
  for (const line of `${vet.stderr}\n${vet.stdout}`.split(/\r?\n/)) {
    const match = VET_LINE.exec(line.trim());
    if (!match) continue;
    const [, , file, row, column, message] = match as unknown as Array<string | undefined>;
    const path = resolve(root, file as string);
    const known = byPosition.get(`${path}:${row}:${column}`);
    if (known) continue; // A type error gopls reported, or a vet finding gopls reported too.
    diagnostics.push({ file: path, line: Number(row), ...(column ? { column: Number(column) } : {}), severity: 'warning', message: message as string, source: 'go vet' });
  }
  // A module without a Go package yet (a go.mod alone): nothing to check is a complete check.
  if (vet.code !== 0 && diagnostics.length === 0 && /^no packages to vet$/m.test(`${vet.stderr}\n${vet.stdout}`)) return [];
  if (vet.code !== 0 && diagnostics.length === 0) {
    const tail = `${vet.stderr}\n${vet.stdout}`.trim().slice(-800);
    return { failed: `go vet exited with code ${vet.code}${tail ? `: ${tail}` : ''}` };
  }
  const blocked = [...new Set(diagnostics.filter((d) => d.severity === 'error').map((d) => dirname(displayPath(d.file, root))))].sort();
  if (blocked.length > 0) {
    const list = `${blocked.slice(0, 5).join(', ')}${blocked.length > 5 ? ', …' : ''}`;
    return { incomplete: `go vet could not check the packages with type errors (${list}): every type error is listed, vet's findings there are not`, diagnostics };
  }
  return diagnostics;
}

/** One line of gopls-diagnose's output, or undefined for any other line. */
function readFinding(line: string): GoplsFinding | undefined {
  if (!line.startsWith('{')) return undefined;
  try {
    const value = JSON.parse(line) as Partial<GoplsFinding>;
    if (typeof value.file !== 'string' || typeof value.line !== 'number' || typeof value.column !== 'number' || typeof value.message !== 'string') return undefined;
    return { endLine: value.line, endColumn: value.column, severity: 1, source: '', ...value } as GoplsFinding;
  } catch {
    // Not JSON (a line gopls itself wrote): not a finding.
    return undefined;
  }
}
