import { isAbsolute, resolve } from 'node:path';
import type { Diagnostic, DiagnosticSeverity } from '@agent-tools/core';
import { findBinary } from '../../discovery/binary.js';
import { displayPath } from '../../util/paths.js';
import type { CheckerOutput, ProjectChecker } from '../checker.js';

// SEVERITY|TYPE|CODE|FILE|LINE|COLUMN|LENGTH|MESSAGE
const LINE = /^(ERROR|WARNING|INFO)\|(\w+)\|(\w+)\|(.+?)\|(\d+)\|(\d+)\|(\d+)\|(.*)$/;

/** `dart analyze --format=machine` in the package. */
export const dartAnalyzeChecker: ProjectChecker = {
  name: 'dart analyze',
  plan({ root, cwd, path }) {
    const lookup = findBinary({ names: ['dart'], root, cwd, path });
    if (!lookup.found) return { unavailable: `dart was not found (looked in ${lookup.looked.join(', ')})` };
    return { command: lookup.found, args: ['analyze', '--format=machine', root], title: `dart analyze ${displayPath(root, cwd)}` };
  },
  parse(output, { root }) {
    return parseDartMachine(output, root);
  },
};

/** Parses `dart analyze --format=machine`; exit codes 0–3 mean the analysis ran (3: errors found). */
export function parseDartMachine(output: CheckerOutput, root: string): readonly Diagnostic[] | { failed: string } {
  const diagnostics: Diagnostic[] = [];
  for (const line of `${output.stdout}\n${output.stderr}`.split(/\r?\n/)) {
    const match = LINE.exec(line.trim());
    if (!match) continue;
    const [, severity, , code, file, row, column, , message] = match as unknown as string[];
    diagnostics.push({
      file: isAbsolute(file as string) ? (file as string) : resolve(root, file as string),
      line: Number(row),
      column: Number(column),
      severity: severityOf(severity as string),
      code: (code as string).toLowerCase(),
      message: (message as string).replace(/\\\|/g, '|'),
      source: 'dart',
    });
  }
  if (output.code === null || output.code > 3 || (output.code !== 0 && diagnostics.length === 0)) {
    const tail = `${output.stdout}\n${output.stderr}`.trim().slice(-800);
    return { failed: `dart analyze exited with code ${output.code}${tail ? `: ${tail}` : ''}` };
  }
  return diagnostics;
}

function severityOf(word: string): DiagnosticSeverity {
  return word === 'ERROR' ? 'error' : word === 'WARNING' ? 'warning' : 'information';
}
