import { dartAnalyzeChecker } from '../../project-check/checkers/dart-analyze.js';
import { defineServer } from '../server-config.js';

/** Dart through the SDK's `dart language-server`; whole-project checks run `dart analyze`. */
export const dartServer = defineServer({
  id: 'dart',
  name: 'dart language-server',
  languages: 'Dart',
  extensions: { '.dart': 'dart' },
  rootMarkers: ['pubspec.yaml'],
  binaries: ['dart'],
  args: ['language-server', '--client-id', 'agent-tools', '--client-version', '1'],
  projectCheck: dartAnalyzeChecker,
});
