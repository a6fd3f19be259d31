import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * js-debug reaches a launched Node process through a watchdog process that speaks to the process's inspector over
 * TCP. Node's inspector leaves Nagle's algorithm on: when it writes two messages in a row (an event, then the reply
 * to the request that caused it: every evaluation js-debug runs for `stackTrace` and `variables` reports the script
 * it compiled before its result), the second waits until the watchdog ACKs the first, and the watchdog's kernel
 * delays that ACK by up to 40 ms. A step and its stop snapshot hit that wait five or six times.
 *
 * This preload, loaded after js-debug's bootloader (which returns once the watchdog has connected), finds the
 * inspector's end of that connection among the process's own file descriptors (Linux: /proc) and sets TCP_NODELAY
 * on it; the program sees nothing else. Elsewhere, or when the inspector is not open, it does nothing.
 */
const PRELOAD = `'use strict';
(() => {
  try {
    if (process.platform !== 'linux' || !require('node:worker_threads').isMainThread) return;
    const url = require('node:inspector').url();
    if (!url) return;
    const fs = require('node:fs');
    const port = ':' + Number(new URL(url).port).toString(16).toUpperCase().padStart(4, '0');
    const inodes = new Set();
    for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
      let text = '';
      try {
        text = fs.readFileSync(table, 'utf8');
      } catch {
        // No such table here (file-system errors only): the other one may have it.
        continue;
      }
      for (const line of text.split('\\n')) {
        const f = line.trim().split(/\\s+/);
        // local address, state 01 (established), inode
        if (f.length > 9 && f[1].endsWith(port) && f[3] === '01') inodes.add(f[9]);
      }
    }
    if (inodes.size === 0) return;
    const net = require('node:net');
    // The handles hold the inspector's descriptors: kept for the life of the process, never read, never closed.
    const kept = (globalThis[Symbol.for('agent-tools.inspector-nodelay')] ??= []);
    for (const fd of fs.readdirSync('/proc/self/fd')) {
      let link = '';
      try {
        link = fs.readlinkSync('/proc/self/fd/' + fd);
      } catch {
        // The descriptor closed meanwhile (file-system errors only): skipped.
        continue;
      }
      const inode = /^socket:\\[(\\d+)\\]$/.exec(link)?.[1];
      if (!inode || !inodes.has(inode)) continue;
      const socket = new net.Socket({ fd: Number(fd), manualStart: true });
      socket.setNoDelay(true);
      socket.unref();
      kept.push(socket);
    }
  } catch {
    // Whatever went wrong, the user's program must run as if this preload were not there: only a speed-up is lost.
  }
})();
`;

/**
 * Writes the preload into the session's folder and returns the `NODE_OPTIONS` that load it in every Node process of
 * the program (forks too: js-debug puts its bootloader first in the same variable).
 */
export function inspectorNoDelayOptions(tempDir: string): string {
  const file = join(tempDir, 'inspector-nodelay.cjs');
  writeFileSync(file, PRELOAD);
  return `--require ${JSON.stringify(file)}`;
}
