import { requestToken } from './work-progress.js';

/**
 * The requests whose parameters take a `workDoneToken` (WorkDoneProgressParams in the LSP specification) and
 * that servers answer with progress of their own making when none is given: pyright begins a "Finding references"
 * progress for every references request, which looked like new indexing and made each question be asked twice.
 */
const TAKES_TOKEN = new Set([
  'textDocument/hover',
  'textDocument/definition',
  'textDocument/typeDefinition',
  'textDocument/implementation',
  'textDocument/references',
  'textDocument/documentSymbol',
  'textDocument/rename',
  'textDocument/codeAction',
  'textDocument/prepareCallHierarchy',
  'callHierarchy/incomingCalls',
  'callHierarchy/outgoingCalls',
  'workspace/symbol',
  'workspace/executeCommand',
]);

/** The request's parameters with a token of ours, so its progress is reported there (and not taken for indexing). */
export function withWorkDoneToken<P>(method: string, params: P): P {
  if (!TAKES_TOKEN.has(method) || params === null || typeof params !== 'object' || 'workDoneToken' in params) return params;
  return { ...params, workDoneToken: requestToken() };
}
