import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { tempDir } from '@agent-tools/test-utils';
import { afterAll, describe, expect, it } from 'vitest';
import { createTreeSitterLoader, type MatchRecord } from '../src/index.js';
import { cliLocations, copyCorpus, difference, ourLocations } from './agreement.js';

/**
 * Agreement with the reference implementation, `ast-grep` (the @ast-grep/cli binary), on real code: the match
 * locations must be identical, except for the deliberate differences, each listed with the direction it goes.
 */

const require = createRequire(import.meta.url);
const zod = dirname(require.resolve('zod/package.json'));

/** A pattern on which we deliberately find more than ast-grep; every extra match must show the reason. */
interface Difference {
  readonly pattern: string;
  readonly reason: string;
  /** Holds for each match only we find. */
  readonly extra: (match: MatchRecord) => boolean;
  /** ast-grep finds nothing at all (its parse of the pattern is not the code it obviously is). */
  readonly cliFindsNothing?: boolean;
}

interface Corpus {
  readonly language: string;
  readonly cli: string;
  readonly sources: readonly string[];
  readonly accept: (name: string) => boolean;
  readonly recursive: boolean;
  readonly same: readonly string[];
  readonly differences: readonly Difference[];
}

const backtracking = (lang: string): Difference => ({
  pattern: '$F($$$A, $LAST)',
  reason: `$$$ backtracks: every ${lang} call with two or more arguments matches, not only one-argument calls`,
  extra: (m) => (m.captures['A']?.items?.length ?? 0) >= 1,
});

/** Comments, and Python's line continuations: extra nodes that may sit between any two nodes. */
const hasExtra = (m: MatchRecord): boolean => /#|\/\/|\/\*|\\\n/.test(m.text);
const EXTRAS = 'a comment (or a line continuation) between two nodes does not block a match';

const corpora: readonly Corpus[] = [
  {
    language: 'python',
    cli: 'python',
    sources: ['/usr/lib/python3.11'],
    accept: (n) => n.endsWith('.py'),
    recursive: false,
    same: [
      'print($$$ARGS)',
      'isinstance($X, $T)',
      'return None',
      'raise $E($$$)',
      '$X is None',
      'def __init__(self, $$$P):\n    $$$B',
      'self.$A = $A',
      'lambda $$$A: $B',
      '$A.append($B)',
      'import $M',
      'with $E as $V:\n    $$$B',
    ],
    differences: [
      backtracking('python'),
      {
        pattern: 'if not $X:\n    return $Y',
        reason: EXTRAS,
        extra: hasExtra,
      },
      {
        pattern: 'if $C:\n    $S\n    $$$REST',
        reason: `$$$ at the end of a block may match nothing, and ${EXTRAS}`,
        extra: (m) => m.captures['REST']?.items?.length === 0 || hasExtra(m),
      },
    ],
  },
  {
    language: 'typescript',
    cli: 'ts',
    sources: [join(zod, 'src')],
    accept: (n) => n.endsWith('.ts') && !n.endsWith('.d.ts'),
    recursive: true,
    same: [
      'console.log($$$A)',
      'new $C($$$A)',
      '$A.map(($X) => $Y)',
      'export function $F($$$P) { $$$B }',
      'import { $$$N } from $S',
      'throw new Error($M)',
      '$A ?? $B',
      'type $T = $V',
      'function $F($$$P): $R { $$$B }',
      'typeof $X === $T',
      'for (const $X of $Y) { $$$B }',
      '$X as $T',
    ],
    differences: [
      backtracking('typescript'),
      {
        pattern: 'if ($C) { return $V; }',
        reason: EXTRAS,
        extra: hasExtra,
      },
    ],
  },
  {
    language: 'javascript',
    cli: 'js',
    sources: [zod],
    accept: (n) => n.endsWith('.js'),
    recursive: true,
    same: ['Object.defineProperty($O, $K, $D)', 'function $F($$$P) { $$$B }', '$A.call($$$B)', 'if ($C) return $V'],
    differences: [],
  },
  {
    language: 'go',
    cli: 'go',
    sources: ['fmt', 'errors', 'bufio', 'strconv'].map((d) => `/usr/lib/go/src/${d}`),
    accept: (n) => n.endsWith('.go'),
    recursive: false,
    same: ['for $K, $V := range $X { $$$ }', 'func ($R $T) $M($$$P) $$$', '$A := $B', 'switch $X { $$$ }', 'defer $F($$$)'],
    differences: [
      {
        pattern: 'errors.New($MSG)',
        reason: 'the context ladder compiles it as the call it is; ast-grep reads a type conversion',
        extra: (m) => m.text.startsWith('errors.New('),
        cliFindsNothing: true,
      },
      {
        pattern: 'fmt.Errorf($$$A)',
        reason: 'the context ladder compiles it as the call it is; ast-grep reads a type conversion',
        extra: (m) => m.text.startsWith('fmt.Errorf('),
        cliFindsNothing: true,
      },
      {
        pattern: 'if err != nil { return $$$R }',
        reason: '$$$ at the end of a list may match nothing (a bare return)',
        extra: (m) => m.captures['R']?.items?.length === 0,
      },
    ],
  },
  {
    language: 'c',
    cli: 'c',
    sources: ['/usr/lib/go/src/runtime/cgo'],
    accept: (n) => n.endsWith('.c') || n.endsWith('.h'),
    recursive: false,
    same: [
      '#define $N $V',
      'if ($C) { $$$ }',
      'return $V;',
      '$T $F($$$P) { $$$B }',
      'fprintf(stderr, $$$A)',
      '$A = $B;',
      'if ($A == NULL) { $$$ }',
    ],
    differences: [
      backtracking('c'),
      {
        pattern: 'free($P)',
        reason: 'the context ladder compiles it as a call; ast-grep reads a declaration',
        extra: (m) => m.text.startsWith('free('),
        cliFindsNothing: true,
      },
      {
        pattern: 'malloc($N)',
        reason: 'the context ladder compiles it as a call; ast-grep reads a declaration',
        extra: (m) => m.text.startsWith('malloc('),
        cliFindsNothing: true,
      },
    ],
  },
];

const loader = createTreeSitterLoader({ workers: 2 });
afterAll(() => loader.dispose());

for (const corpus of corpora) {
  describe(`agreement with ast-grep on ${corpus.language} (${corpus.sources.join(', ')})`, () => {
    const dir = tempDir();
    afterAll(() => dir.remove());
    const files: string[] = [];
    const prepare = (): void => {
      if (files.length) return;
      for (const source of corpus.sources) {
        files.push(...copyCorpus(source, join(dir.path, source.split('/').pop() ?? 'src'), corpus.accept, { recursive: corpus.recursive }));
      }
      expect(files.length).toBeGreaterThan(10);
    };

    for (const pattern of corpus.same) {
      it(`finds exactly what ast-grep finds: ${JSON.stringify(pattern)}`, { timeout: 120_000 }, async () => {
        prepare();
        const [ours, theirs] = await Promise.all([
          ourLocations(loader, dir.path, corpus.language, pattern),
          cliLocations(dir.path, corpus.cli, pattern),
        ]);
        expect(theirs.length, 'a pattern that matches nothing proves nothing').toBeGreaterThan(0);
        expect(difference([...ours.keys()], theirs)).toEqual({ onlyOurs: [], onlyTheirs: [] });
      });
    }

    for (const diff of corpus.differences) {
      it(`finds more than ast-grep, deliberately, for ${JSON.stringify(diff.pattern)}: ${diff.reason}`, { timeout: 120_000 }, async () => {
        prepare();
        const [ours, theirs] = await Promise.all([
          ourLocations(loader, dir.path, corpus.language, diff.pattern),
          cliLocations(dir.path, corpus.cli, diff.pattern),
        ]);
        const { onlyOurs, onlyTheirs } = difference([...ours.keys()], theirs);
        expect(onlyTheirs, 'ast-grep must never find a match we miss').toEqual([]);
        expect(onlyOurs.length, 'the difference must show on this corpus').toBeGreaterThan(0);
        if (diff.cliFindsNothing) expect(theirs).toEqual([]);
        else expect(theirs.length).toBeGreaterThan(0);
        const unexplained = onlyOurs.filter((location) => !diff.extra(ours.get(location) as MatchRecord));
        expect(unexplained, `every extra match must be explained by: ${diff.reason}`).toEqual([]);
      });
    }
  });
}
