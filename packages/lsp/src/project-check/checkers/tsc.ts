import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Diagnostic, DiagnosticSeverity } from '@agent-tools/core';
import { bundledNodeBin } from '../../config/bundled.js';
import { findBinary } from '../../discovery/binary.js';
import { displayPath } from '../../util/paths.js';
import type { CheckerOutput, ProjectChecker } from '../checker.js';

const LOCATED = /^(.+?)\((\d+),(\d+)\): (error|warning|message) (TS\d+): (.*)$/;
const GLOBAL = /^(error|warning|message) (TS\d+): (.*)$/;

/** `tsc --noEmit -p <tsconfig>`: the project's own compiler, project-local first. */
export const tscChecker: ProjectChecker = {
  name: 'tsc',
  plan({ root, cwd, path }) {
    const config = ['tsconfig.json', 'jsconfig.json'].map((name) => join(root, name)).find((file) => existsSync(file));
    if (!config) return { unavailable: `there is no tsconfig.json or jsconfig.json in ${displayPath(root, cwd)}` };
    const lookup = findBinary({ names: ['tsc'], root, cwd, path, bundled: bundledNodeBin('typescript', 'tsc') });
    if (!lookup.found) return { unavailable: `tsc was not found (looked in ${lookup.looked.join(', ')})` };
    return {
      command: lookup.found,
      args: ['--noEmit', '--pretty', 'false', '-p', config],
      title: `tsc --noEmit -p ${displayPath(config, cwd)}`,
    };
  },
  parse(output, { root }) {
    return parseTscOutput(output, root);
  },
};

/** Parses `tsc --pretty false` output; continuation lines (indented) belong to the message above. */
export function parseTscOutput(output: CheckerOutput, root: string): readonly Diagnostic[] | { failed: string } {
  const diagnostics: Array<{ -readonly [K in keyof Diagnostic]: Diagnostic[K] }> = [];
  for (const line of `${output.stdout}\n${output.stderr}`.split(/\r?\n/)) {
    const located = LOCATED.exec(line);
    if (located) {
      const [, file, row, column, severity, code, message] = located as unknown as string[];
      diagnostics.push({
        file: resolve(root, file as string),
        line: Number(row),
        column: Number(column),
        severity: severityOf(severity as string),
        code: code as string,
        message: message as string,
        source: 'tsc',
      });
      continue;
    }
    const global = GLOBAL.exec(line);
    if (global) {
      const [, severity, code, message] = global as unknown as string[];
      diagnostics.push({ file: root, line: 1, severity: severityOf(severity as string), code: code as string, message: message as string, source: 'tsc' });
      continue;
    }
    const last = diagnostics[diagnostics.length - 1];
    if (last && /^\s+\S/.test(line)) last.message = `${last.message}\n${line.trim()}`;
  }
  // 0: clean; 1 and 2: diagnostics were reported. Anything else, or a failure without diagnostics, is a crash.
  if (output.code !== 0 && (diagnostics.length === 0 || (output.code !== 1 && output.code !== 2))) {
    const tail = `${output.stdout}\n${output.stderr}`.trim().slice(-800);
    return { failed: `tsc exited with code ${output.code}${tail ? `: ${tail}` : ''}` };
  }
  return diagnostics;
}

function severityOf(word: string): DiagnosticSeverity {
  return word === 'error' ? 'error' : word === 'warning' ? 'warning' : 'information';
}
