import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pyrightChecker } from '../../project-check/checkers/pyright.js';
import { bundledNodeBin } from '../bundled.js';
import { defineServer } from '../server-config.js';

/**
 * Python through pyright (or basedpyright). Diagnostics are pulled: pyright offers `textDocument/diagnostic`
 * by dynamic registration, which the client declares. A project's `.venv` or `venv` interpreter is used when
 * present, so its installed packages resolve.
 */
export const pyrightServer = defineServer({
  id: 'pyright',
  name: 'pyright',
  languages: 'Python',
  extensions: { '.py': 'python', '.pyi': 'python' },
  rootMarkers: ['pyrightconfig.json', 'pyproject.toml', 'setup.py', 'setup.cfg', 'requirements.txt', 'Pipfile'],
  binaries: ['pyright-langserver', 'basedpyright-langserver'],
  args: ['--stdio'],
  bundled: bundledNodeBin('pyright', 'pyright-langserver'),
  settings: ({ root }) => {
    const venv = ['.venv', 'venv'].map((dir) => join(root, dir, 'bin', 'python')).find((file) => existsSync(file));
    return {
      python: {
        ...(venv ? { pythonPath: venv } : {}),
        analysis: { diagnosticMode: 'openFilesOnly', autoSearchPaths: true, useLibraryCodeForTypes: true },
      },
    };
  },
  projectCheck: pyrightChecker,
  // Until it has enumerated the workspace, references and renames cover only the open files.
  // ("No include entries specified" comes before the enumeration, not after it.)
  readyPattern: /^(?:Found \d+ source files?|No source files found)/m,
});
