#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import process from 'node:process';
import { JsKernel } from './kernel.js';
import type { ConnectionInfo } from './wire.js';

/**
 * Entry point of eval's JavaScript kernel: `node main.js <connection file>`, as its kernel spec launches it.
 * It exits when the process that launched it (the Jupyter server) is gone, so no kernel outlives its server.
 */
const file = process.argv[2];
if (!file) {
  process.stderr.write('usage: node main.js <connection file>\n');
  process.exit(2);
}
const info = JSON.parse(readFileSync(file, 'utf8')) as ConnectionInfo;
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) process.exit(0);
}, 1000).unref();
await new JsKernel(info).start();
