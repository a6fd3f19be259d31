import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { tempDir } from '@agent-tools/test-utils';
import { describe, expect, it } from 'vitest';
import { unifiedDiff } from '../src/rewrite/diff.js';

/** Applies a diff with git (a real consumer of unified diffs) and returns the patched text. */
function applyWithGit(before: string, diff: string): string {
  using dir = tempDir({ 'f.txt': before });
  writeFileSync(dir.join('change.diff'), `${diff.replaceAll('a/f', 'a/f.txt').replaceAll('b/f', 'b/f.txt')}\n`);
  execFileSync('git', ['apply', 'change.diff'], { cwd: dir.path });
  return readFileSync(dir.join('f.txt'), 'utf8');
}

describe('unifiedDiff', () => {
  it('is empty for equal texts', () => {
    expect(unifiedDiff('f', 'a\n', 'a\n')).toBe('');
  });

  it('writes hunks with three lines of context and merges close changes', () => {
    const before = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
    const after = before.replace('line 5\n', 'line five\n').replace('line 8\n', 'line eight\n').replace('line 18\n', '');
    expect(unifiedDiff('f', before, after)).toBe(
      [
        '--- a/f',
        '+++ b/f',
        '@@ -2,10 +2,10 @@',
        ' line 2',
        ' line 3',
        ' line 4',
        '-line 5',
        '+line five',
        ' line 6',
        ' line 7',
        '-line 8',
        '+line eight',
        ' line 9',
        ' line 10',
        ' line 11',
        '@@ -15,6 +15,5 @@',
        ' line 15',
        ' line 16',
        ' line 17',
        '-line 18',
        ' line 19',
        ' line 20',
      ].join('\n'),
    );
  });

  it('marks a missing final newline', () => {
    expect(unifiedDiff('f', 'a', 'b')).toBe('--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+b\n\\ No newline at end of file');
  });

  it('produces diffs that git applies exactly (randomized)', () => {
    let seed = 42;
    const random = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let round = 0; round < 25; round++) {
      const lines = Array.from({ length: 5 + random(40) }, () => `l${random(6)}`);
      const changed = [...lines];
      for (let edits = 1 + random(5); edits > 0; edits--) {
        const at = random(changed.length + 1);
        const op = random(3);
        if (op === 0) changed.splice(at, 1);
        else if (op === 1) changed.splice(at, 0, `new${random(100)}`);
        else changed.splice(at, 1, `mod${random(100)}`);
      }
      const before = `${lines.join('\n')}\n`;
      const after = `${changed.join('\n')}\n`;
      const diff = unifiedDiff('f', before, after);
      if (before === after) continue;
      expect(applyWithGit(before, diff), diff).toBe(after);
    }
  });
});
