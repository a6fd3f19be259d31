import { defineServer } from '../server-config.js';
import { generatedDatabase } from './clangd-database.js';

/** Versioned names Debian and Ubuntu install clangd under, newest first. */
const VERSIONS = Array.from({ length: 12 }, (_, i) => `clangd-${22 - i}`);

/**
 * C and C++ through clangd, also under its versioned names (`clangd-19`). Whole-project checks open every
 * source file with the server: C has no project checker of its own.
 */
export const clangdServer = defineServer({
  id: 'clangd',
  name: 'clangd',
  languages: 'C/C++',
  extensions: {
    '.c': 'c',
    '.h': 'c',
    '.cc': 'cpp',
    '.cpp': 'cpp',
    '.cxx': 'cpp',
    '.c++': 'cpp',
    '.hh': 'cpp',
    '.hpp': 'cpp',
    '.hxx': 'cpp',
    '.ipp': 'cpp',
    '.m': 'objective-c',
    '.mm': 'objective-cpp',
  },
  rootMarkers: ['compile_commands.json', 'compile_flags.txt', '.clangd', 'CMakeLists.txt', 'meson.build', 'Makefile'],
  binaries: ['clangd', ...VERSIONS],
  // Every reference, not the first 1000: the tool shows 50 and says how many there are.
  args: ['--log=error', '--limit-references=0'],
  // A project without a compilation database gets one listing its sources, so that clangd indexes all of them.
  prepareLaunch: ({ root }) => generatedDatabase(root),
  // clangd indexes every file of the database in the background after the first file is opened; until then
  // references, definitions in other files and workspace symbols come from open files only.
  backgroundIndex: () => ({ title: /^indexing/ }),
  // After a header changed, a changed file is built from the old preamble first and published twice.
  reopenAfterOtherChanges: true,
  // --limit-results defaults to 100.
  workspaceSymbolLimit: 100,
});
