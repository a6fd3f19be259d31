import { goVetChecker } from '../../project-check/checkers/go-vet.js';
import { defineServer } from '../server-config.js';

/** Go through gopls; whole-project checks run `go vet ./...`. */
export const goplsServer = defineServer({
  id: 'gopls',
  name: 'gopls',
  languages: 'Go',
  extensions: { '.go': 'go' },
  rootMarkers: ['go.work', 'go.mod'],
  binaries: ['gopls'],
  args: [],
  env: { GOTOOLCHAIN: 'local' },
  projectCheck: goVetChecker,
  // gopls returns at most 100 workspace symbols.
  workspaceSymbolLimit: 100,
});
