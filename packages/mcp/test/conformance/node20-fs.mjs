// @modelcontextprotocol/conformance 0.1.16 imports fs.globSync (Node 22) at load time, for reading result files; its
// server scenarios never call it. On Node 20 its import of 'fs' is redirected to a copy that adds a stub.
import { register } from 'node:module';

register('./fs-hook.mjs', import.meta.url);
