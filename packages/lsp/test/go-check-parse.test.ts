import { describe, expect, it } from 'vitest';
import { parseGoCheck } from '../src/project-check/checkers/go-check.js';

// The parse of Go's project check: gopls-diagnose's JSON findings, then go vet's output.
const vet = { stdout: '', stderr: '# example.com/x\nvet: a.go:3:13: cannot use "a" (untyped string constant) as int value in variable declaration\n', code: 1 };
const typeError = { file: '/p/a.go', line: 3, column: 13, endLine: 3, endColumn: 16, severity: 1, source: 'compiler', message: 'cannot use "a" (untyped string constant) as int value in variable declaration' };

describe('parseGoCheck', () => {
  it('a gopls-diagnose that did not finish fails the check: vet alone is not a complete check', () => {
    // Killed, crashed or missing: no findings, no "gopls:" line, a non-zero exit. Vet's type error alone would read as
    // a verified check with one warning.
    const parsed = parseGoCheck({ stdout: '', stderr: 'node: out of memory\n', code: 134, more: [vet] }, '/p');
    expect(parsed).toEqual({ failed: 'gopls check exited with code 134: node: out of memory' });
    expect(parseGoCheck({ stdout: '', stderr: '', code: null, more: [vet] }, '/p')).toEqual({ failed: 'gopls check exited with a signal' });
  });

  it('a finished one: its type error is the error, and vet\'s line at the same place is the same finding', () => {
    const parsed = parseGoCheck({ stdout: `${JSON.stringify(typeError)}\n`, stderr: '', code: 0, more: [vet] }, '/p');
    expect(parsed).toEqual({
      incomplete: "go vet could not check the packages with type errors (.): every type error is listed, vet's findings there are not",
      diagnostics: [{ file: '/p/a.go', line: 3, column: 13, severity: 'error', message: typeError.message, source: 'compiler' }],
    });
  });

  it('a module without a package yet (a go.mod alone) is checked, with nothing found; another vet failure is not', () => {
    const none = { stdout: '', stderr: 'go: warning: "./..." matched no packages\nno packages to vet\n', code: 1 };
    expect(parseGoCheck({ stdout: '', stderr: '', code: 0, more: [none] }, '/p')).toEqual([]);
    const broken = { stdout: '', stderr: 'go: errors parsing go.mod:\ngo.mod:5: syntax error\n', code: 1 };
    expect(parseGoCheck({ stdout: '', stderr: '', code: 0, more: [broken] }, '/p')).toEqual({ failed: 'go vet exited with code 1: go: errors parsing go.mod:\ngo.mod:5: syntax error' });
  });
});
