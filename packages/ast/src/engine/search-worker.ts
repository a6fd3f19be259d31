/**
 * The entry of a search worker thread: its own web-tree-sitter runtime and tree cache, answering one search
 * batch at a time. Parsing is the expensive part of a search, and wasm runs on one thread, so a search over
 * many files is spread over several of these.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { AgentToolsError, errorDetail } from '@agent-tools/core/errors';
import { languageSpec } from '../languages.js';
import { FileSearcher } from './file-search.js';
import type { FromWorker, ToWorker, WorkerConfig } from './protocol.js';
import { TreeSitterRuntime } from './runtime.js';
import { TreeCache } from './tree-cache.js';

const config = workerData as WorkerConfig;
const port = parentPort;
if (!port) throw new Error('search-worker must run in a worker thread');

const runtime = new TreeSitterRuntime(config.grammarDir, config.initialMemory);
const searcher = new FileSearcher(runtime, new TreeCache(config.cacheBytes));

// Batches are handled strictly one after another: the runtime's parsers are not reentrant.
let queue: Promise<void> = Promise.resolve();

port.on('message', (message: ToWorker) => {
  queue = queue.then(() => handle(message));
});

async function handle(message: ToWorker): Promise<void> {
  let reply: FromWorker;
  try {
    if (message.type === 'stats') {
      reply = { type: 'stats', id: message.id, stats: searcher.cache.stats() };
    } else if (message.type === 'warm') {
      await runtime.parser(languageSpec(message.language));
      reply = { type: 'warm', id: message.id };
    } else {
      reply = { type: 'result', id: message.id, outcomes: await searcher.search(message.request) };
    }
  } catch (error) {
    const bug = AgentToolsError.isInstance(error) ? undefined : { stack: error instanceof Error ? (error.stack ?? '') : '' };
    reply = { type: 'error', id: message.id, message: errorDetail(error), ...(bug ? { bug } : {}) };
  }
  port?.postMessage(reply);
}
