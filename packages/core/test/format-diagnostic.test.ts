import { describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../src/diagnostics/format.js';

describe('formatDiagnostic', () => {
  it('labels a diagnostic with its source at the end of its first line', () => {
    const d = { file: '/w/a.ts', line: 2, column: 9, severity: 'warning' as const, code: 'eqeqeq', message: "Expected '===' and instead saw '=='.\nsecond line", source: 'eslint' };
    expect(formatDiagnostic(d)).toBe("  2:9 warning eqeqeq: Expected '===' and instead saw '=='. [eslint]\n      second line");
  });

  it('leaves a diagnostic without a source unlabelled', () => {
    expect(formatDiagnostic({ file: '/w/a.ts', line: 1, severity: 'error', message: 'bad' })).toBe('  1 error: bad');
  });
});
