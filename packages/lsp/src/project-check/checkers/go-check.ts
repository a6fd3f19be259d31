import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Diagnostic } from '@agent-tools/core';
import { findBinary } from '../../discovery/binary.js';
import { listSourceFiles } from '../../discovery/root.js';
import { displayPath } from '../../util/paths.js';
import type { CheckerOutput, ProjectChecker } from '../checker.js';

const MAX_FILES = 5000;
// gopls: `/abs/a.go:5:13-16: message` (a span may end on another line: `5:13-6:2`).
const GOPLS_LINE = /^(\S[^:]*\.go):(\d+):(\d+)(?:-(?:\d+:)?\d+)?: (.*)$/;
// go vet: `./a.go:5:13: message`, or `vet: ./a.go:...` for the type error it stopped at.
const VET_LINE = /^(vet: )?(\S[^:]*\.go):(\d+)(?::(\d+))?: (.*)$/;
// gopls appends the analyzer's documentation to what vet's analyzers find.
const ANALYZER_DOC = /, see also https:\/\/pkg\.go\.dev\//;

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
 * Parses `gopls check` followed by `go vet`. gopls reports type errors and the findings of vet's analyzers in one
 * format: a finding vet reports at the same position, or one that points to an analyzer's documentation, is a
 * warning; the rest are type errors. vet cannot analyze a package that does not type-check, so a check with type
 * errors is complete for errors and incomplete for vet's findings.
 */
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

export function parseGoCheck(output: CheckerOutput, root: string): ReturnType<ProjectChecker['parse']> {
  const byPosition = new Map<string, Diagnostic>();
  const diagnostics: Diagnostic[] = [];
  for (const line of `${output.stdout}\n${output.stderr}`.split(/\r?\n/)) {
    if (/^gopls: /.test(line.trim())) return { failed: `gopls check failed: ${line.trim().slice(0, 400)}` };
    const match = GOPLS_LINE.exec(line.trim());
    if (!match) continue;
    const [, file, row, column, message] = match as unknown as string[];
    const analyzer = ANALYZER_DOC.test(message as string);
    const diagnostic: Diagnostic = {
      file: resolve(root, file as string),
      line: Number(row),
      column: Number(column),
      severity: analyzer ? 'warning' : 'error',
      message: message as string,
      source: analyzer ? 'go vet' : 'gopls',
    };
    byPosition.set(`${diagnostic.file}:${diagnostic.line}:${diagnostic.column}`, diagnostic);
    diagnostics.push(diagnostic);
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
