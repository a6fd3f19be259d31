import { LanguageServer } from './dist/server/language-server.js';
import { builtinServers } from './dist/index.js';
import { findBinary } from './dist/discovery/binary.js';
import { CodeActionRequest } from 'vscode-languageserver-protocol';
const [,, id, root, file] = process.argv;
const config = builtinServers[id];
const binary = findBinary({ names: config.binaries, root, cwd: root, path: process.env.PATH, ...(config.bundled ? { bundled: config.bundled } : {}) }).found;
console.log(binary.display);
const t0 = Date.now();
const server = LanguageServer.launch({ config, root, cwd: root, binary, limits: { requestTimeoutMs: 20000, startTimeoutMs: 20000, shutdownGraceMs: 1000, maxOpenDocuments: 50, maxMalformed: 100 } });
await server.ready;
console.log('pid', server.pid, 'caps', JSON.stringify(server.capabilities).slice(0, 600), Date.now()-t0);
const doc = server.open(root + '/' + file);
try {
const diags = await server.diagnostics.of(doc, Date.now() + 15000);
console.log('diags', Date.now()-t0, JSON.stringify(diags).slice(0, 1500));
} catch (e) { console.log('diag error', e.message); }
console.log('log', JSON.stringify(server.log).slice(0, 1500));
console.log('events', JSON.stringify(server.events.all).slice(0, 800));
await server.stop();
