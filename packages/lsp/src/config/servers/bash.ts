import { bundledNodeBin } from '../bundled.js';
import { defineServer } from '../server-config.js';
import { PROJECT_MARKERS } from './document-roots.js';

/**
 * Shell scripts through `bash-language-server`. Its lint findings come from shellcheck (Debian's `shellcheck`), which it
 * runs when it finds it on the search path; without it the server reports no diagnostics at all, which status says.
 */
export const bashServer = defineServer({
  id: 'bash',
  name: 'bash-language-server',
  languages: 'Bash/sh',
  extensions: { '.sh': 'shellscript', '.bash': 'shellscript' },
  filenames: { '.bashrc': 'shellscript', '.bash_profile': 'shellscript', '.profile': 'shellscript' },
  rootMarkers: [...PROJECT_MARKERS, '.shellcheckrc', 'Makefile'],
  binaries: ['bash-language-server'],
  args: ['start'],
  bundled: bundledNodeBin('bash-language-server', 'bash-language-server'),
  settings: () => ({ bashIde: { backgroundAnalysisMaxFiles: 100 } }),
  companions: [{ binary: 'shellcheck', gives: 'lint findings', install: 'apt install shellcheck' }],
  projectWide: false,
});
