import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { KernelLanguage } from '../language.js';
import { endGroupAtExit } from './kernel-group.js';

/** The kernel spec names eval starts by default, per language. */
export const KERNEL_SPEC_NAMES: Readonly<Record<KernelLanguage, string>> = Object.freeze({
  python: 'agent-tools-python',
  javascript: 'agent-tools-javascript',
});

/** Where the JavaScript kernel's entry point is. */
// `src/jupyter` and `dist/jupyter` sit at the same depth, so this resolves to the built kernel from both: the
// kernel runs as plain Node, never through a TypeScript loader.
export const JS_KERNEL_MAIN: string = fileURLToPath(new URL('../../dist/js-kernel/main.js', import.meta.url));

let launcher: string | undefined;

/**
 * Ends what the kernel's cells left in its process group when the kernel exits (see {@link endGroupAtExit}), then
 * starts ipykernel (`kernel-start.py`, beside this file: without importing debugpy, which costs a third of the
 * kernel's start). History stays in memory (the spec's argv): eval does not need IPython's SQLite file, and writing it
 * costs time on every cell.
 */
function pythonLauncher(): string {
  launcher ??= `${endGroupAtExit()}${readFileSync(new URL('./kernel-start.py', import.meta.url), 'utf8')}`;
  return launcher;
}

/** How {@link installKernelSpecs} writes the two kernel specs. */
export interface KernelSpecOptions {
  /** The Python interpreter with ipykernel (default `/usr/bin/python3`). */
  readonly python?: string;
  /** The Node binary of the JavaScript kernel (default: the running Node). */
  readonly node?: string;
  /** Extra environment of both kernels. */
  readonly env?: Readonly<Record<string, string>>;
}

/**
 * Writes eval's two kernel specs under `<dataDir>/kernels/`: `agent-tools-python` (ipykernel on the given
 * interpreter) and `agent-tools-javascript` (eval's own Node kernel). A harness whose isolated environments run
 * their own Jupyter server calls this with a directory on that server's `JUPYTER_PATH` so both languages work
 * there too. Returns the spec directories.
 */
export function installKernelSpecs(dataDir: string, options: KernelSpecOptions = {}): Record<KernelLanguage, string> {
  const env = { PYDEVD_DISABLE_FILE_VALIDATION: '1', ...options.env };
  const specs: Record<KernelLanguage, object> = {
    python: {
      argv: [options.python ?? '/usr/bin/python3', '-c', pythonLauncher(), '-f', '{connection_file}', '--HistoryManager.hist_file=:memory:'],
      display_name: 'Python 3 (agent-tools)',
      language: 'python',
      interrupt_mode: 'signal',
      env,
      metadata: {},
    },
    javascript: {
      // The vm loader eval uses for `import()` in cells is flagged experimental on Node 20; its warning would
      // land in every first cell's stderr.
      argv: [options.node ?? process.execPath, '--disable-warning=ExperimentalWarning', JS_KERNEL_MAIN, '{connection_file}'],
      display_name: `JavaScript (agent-tools, Node ${process.versions.node})`,
      language: 'javascript',
      interrupt_mode: 'signal',
      env,
      metadata: {},
    },
  };
  const written = {} as Record<KernelLanguage, string>;
  for (const language of Object.keys(specs) as KernelLanguage[]) {
    const dir = join(dataDir, 'kernels', KERNEL_SPEC_NAMES[language]);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'kernel.json'), `${JSON.stringify(specs[language], null, 1)}\n`);
    written[language] = dir;
  }
  return written;
}
