import { resolve } from 'node:path';
import type { Diagnostic } from '@agent-tools/core';
import { findBinary } from '../../discovery/binary.js';
import { displayPath } from '../../util/paths.js';
import type { CheckerOutput, ProjectChecker } from '../checker.js';

const LINE = /^(.+?):(\d+):(\d+): (error|warning)(?:\[(\w+)\])?: (.*)$/;

/** `cargo check --message-format=short` in the crate or workspace. */
export const cargoChecker: ProjectChecker = {
  name: 'cargo check',
  plan({ root, cwd, path }) {
    const lookup = findBinary({ names: ['cargo'], root, cwd, path });
    if (!lookup.found) return { unavailable: `cargo was not found (looked in ${lookup.looked.join(', ')})` };
    return {
      command: lookup.found,
      args: ['check', '--message-format=short', '--offline'],
      title: `cargo check in ${displayPath(root, cwd)}`,
    };
  },
  parse(output, { root }) {
    return parseCargoShort(output, root);
  },
};

/** Parses `cargo check --message-format=short` lines (`src/main.rs:2:5: error[E0425]: message`). */
export function parseCargoShort(output: CheckerOutput, root: string): readonly Diagnostic[] | { failed: string } {
  const diagnostics: Diagnostic[] = [];
  for (const line of `${output.stderr}\n${output.stdout}`.split(/\r?\n/)) {
    const match = LINE.exec(line.trim());
    if (!match) continue;
    const [, file, row, column, severity, code, message] = match as unknown as Array<string | undefined>;
    diagnostics.push({
      file: resolve(root, file as string),
      line: Number(row),
      column: Number(column),
      severity: severity === 'error' ? 'error' : 'warning',
      ...(code ? { code } : {}),
      message: message as string,
      source: 'cargo',
    });
  }
  if (output.code !== 0 && !diagnostics.some((d) => d.severity === 'error')) {
    const tail = output.stderr.trim().slice(-800);
    return { failed: `cargo check exited with code ${output.code}${tail ? `: ${tail}` : ''}` };
  }
  return diagnostics;
}
