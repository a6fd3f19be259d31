import { describe, expect, it } from 'vitest';
import { builtinServers } from '../src/config/builtin-servers.js';
import { DESCRIPTION } from '../src/tools/lsp.js';

// The first line is what a model reads to decide whether lsp can tell it about a file: a language it does not name
// (a YAML or Dockerfile the model just wrote) reads as one lsp knows nothing about.
describe('the lsp tool description', () => {
  const first = DESCRIPTION.split('\n')[0] ?? '';
  it.each(Object.values(builtinServers).filter((c) => (c.role ?? 'primary') === 'primary'))('names the languages of $id', (config) => {
    expect(first).toContain(config.languages);
  });
  it.each(Object.values(builtinServers).filter((c) => c.role === 'additional'))('names the linter $id', (config) => {
    expect(first.toLowerCase()).toContain(config.id);
  });
});
