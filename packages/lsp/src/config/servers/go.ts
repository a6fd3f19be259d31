import { goChecker } from '../../project-check/checkers/go-check.js';
import { defineServer } from '../server-config.js';

/** Go through gopls; whole-project checks run `gopls check` on every file (all type errors) and `go vet ./...`. */
export const goplsServer = defineServer({
  id: 'gopls',
  name: 'gopls',
  languages: 'Go',
  extensions: { '.go': 'go' },
  rootMarkers: ['go.work', 'go.mod'],
  binaries: ['gopls'],
  args: [],
  env: { GOTOOLCHAIN: 'local' },
  projectCheck: goChecker,
  // A file's first open is answered by an unversioned type check, then (without type errors) by a versioned publish
  // with the analyzers' findings (vet) when they are done, later under load: a baseline taken from the first alone
  // would report the file's old vet findings as new after the next write. The versioned publish ends the wait early.
  publishQuietMs: 1000,
  // gopls returns at most 100 workspace symbols.
  workspaceSymbolLimit: 100,
});
