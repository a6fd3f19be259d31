import { resolve } from 'node:path';
import type { Diagnostic, DiagnosticSeverity } from '@agent-tools/core';
import { bundledNodeBin } from '../../config/bundled.js';
import { findBinary } from '../../discovery/binary.js';
import { displayPath } from '../../util/paths.js';
import type { CheckerOutput, ProjectChecker } from '../checker.js';

interface PyrightJson {
  readonly generalDiagnostics?: ReadonlyArray<{
    readonly file?: string;
    readonly severity?: string;
    readonly message?: string;
    readonly rule?: string;
    readonly range?: { readonly start?: { readonly line?: number; readonly character?: number } };
  }>;
}

/** The `pyright` command line over the project (`--outputjson`), project-local first. */
export const pyrightChecker: ProjectChecker = {
  name: 'pyright',
  plan({ root, cwd, path }) {
    const lookup = findBinary({
      names: ['pyright', 'basedpyright'],
      root,
      cwd,
      path,
      bundled: bundledNodeBin('pyright', 'pyright'),
    });
    if (!lookup.found) return { unavailable: `pyright was not found (looked in ${lookup.looked.join(', ')})` };
    return { command: lookup.found, args: ['--outputjson', '--project', root], title: `pyright --project ${displayPath(root, cwd)}` };
  },
  parse(output, { root }) {
    return parsePyrightJson(output, root);
  },
};

/** Parses `pyright --outputjson`; exit codes above 1 mean the check itself failed. */
export function parsePyrightJson(output: CheckerOutput, root: string): readonly Diagnostic[] | { failed: string } {
  let json: PyrightJson;
  try {
    json = JSON.parse(output.stdout) as PyrightJson;
  } catch {
    // JSON.parse raises only SyntaxError: pyright printed something else, which the answer quotes.
    const tail = `${output.stdout}\n${output.stderr}`.trim().slice(-800);
    return { failed: `pyright exited with code ${output.code} without a JSON report${tail ? `: ${tail}` : ''}` };
  }
  if (output.code !== 0 && output.code !== 1) {
    return { failed: `pyright exited with code ${output.code} (a configuration or internal error): ${output.stderr.trim().slice(-600)}` };
  }
  return (json.generalDiagnostics ?? []).map((d): Diagnostic => {
    const start = d.range?.start;
    return {
      file: resolve(root, d.file ?? root),
      line: (start?.line ?? 0) + 1,
      column: (start?.character ?? 0) + 1,
      severity: severityOf(d.severity),
      ...(d.rule ? { code: d.rule } : {}),
      message: d.message ?? '',
      source: 'pyright',
    };
  });
}

function severityOf(word: string | undefined): DiagnosticSeverity {
  return word === 'error' ? 'error' : word === 'warning' ? 'warning' : 'information';
}
