import { tempDir } from '@agent-tools/test-utils';
import { createTreeSitterLoader, type TreeSitterLoader } from '../src/index.js';
import { searchWorkspace } from '../src/workspace/search.js';

/** A loader searching on the test's own thread (the worker path has its own tests). */
export function inlineLoader(): TreeSitterLoader {
  return createTreeSitterLoader({ workers: 0 });
}

/** What one match looks like in these tests: its text and its captures' texts. */
export interface Found {
  readonly text: string;
  readonly line: number;
  readonly captures: Record<string, string>;
}

/** Searches one file of code for a pattern and returns the matches. */
export async function find(loader: TreeSitterLoader, file: string, code: string, pattern: string): Promise<Found[]> {
  await using dir = tempDir({ [file]: code });
  const summary = await searchWorkspace(loader, dir.path, { pattern, path: file });
  return summary.results.flatMap((r) =>
    r.matches.map((m) => ({
      text: m.text,
      line: m.startRow + 1,
      captures: Object.fromEntries(Object.entries(m.captures).map(([k, v]) => [k, v.text])),
    })),
  );
}

/** The matched texts only. */
export async function texts(loader: TreeSitterLoader, file: string, code: string, pattern: string): Promise<string[]> {
  return (await find(loader, file, code, pattern)).map((f) => f.text);
}
