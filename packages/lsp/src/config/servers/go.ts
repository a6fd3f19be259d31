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
  // gopls returns at most 100 workspace symbols.
  workspaceSymbolLimit: 100,
});
