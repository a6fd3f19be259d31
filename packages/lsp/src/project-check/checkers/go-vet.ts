import { resolve } from 'node:path';
import type { Diagnostic } from '@agent-tools/core';
import { findBinary } from '../../discovery/binary.js';
import { displayPath } from '../../util/paths.js';
import type { CheckerOutput, ProjectChecker } from '../checker.js';

const LINE = /^(?:vet: )?(\S[^:]*\.go):(\d+)(?::(\d+))?: (.*)$/;

/** `go vet ./...` in the module: type errors and vet's checks. */
export const goVetChecker: ProjectChecker = {
  name: 'go vet',
  plan({ root, cwd, path }) {
    const lookup = findBinary({ names: ['go'], root, cwd, path });
    if (!lookup.found) return { unavailable: `go was not found (looked in ${lookup.looked.join(', ')})` };
    // GOTOOLCHAIN=local: a check must never download a toolchain.
    return { command: lookup.found, args: ['vet', './...'], env: { GOTOOLCHAIN: 'local' }, title: `go vet ./... in ${displayPath(root, cwd)}` };
  },
  parse(output, { root }) {
    return parseGoOutput(output, root, 'go vet');
  },
};

/** Parses `file.go:line:col: message` lines of go vet or go build; paths are relative to the module. */
export function parseGoOutput(output: CheckerOutput, root: string, tool: string): readonly Diagnostic[] | { failed: string } {
  const diagnostics: Diagnostic[] = [];
  for (const line of `${output.stderr}\n${output.stdout}`.split(/\r?\n/)) {
    const match = LINE.exec(line.trim());
    if (!match) continue;
    const [, file, row, column, message] = match as unknown as string[];
    diagnostics.push({
      file: resolve(root, file as string),
      line: Number(row),
      ...(column ? { column: Number(column) } : {}),
      severity: 'error',
      message: message as string,
      source: tool,
    });
  }
  if (output.code !== 0 && diagnostics.length === 0) {
    const tail = `${output.stderr}\n${output.stdout}`.trim().slice(-800);
    return { failed: `${tool} exited with code ${output.code}${tail ? `: ${tail}` : ''}` };
  }
  return diagnostics;
}
