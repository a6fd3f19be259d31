import fs from 'node:fs';

export * from 'node:fs';
export default fs;

/** Not on Node 20; the suite only uses it to collect result files, which the server scenarios never do. */
export function globSync() {
  throw new Error('fs.globSync needs Node 22; not available to the conformance suite on Node 20');
}
