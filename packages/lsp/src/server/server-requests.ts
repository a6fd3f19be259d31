import { basename } from 'node:path';
import {
  type ApplyWorkspaceEditParams,
  ApplyWorkspaceEditRequest,
  type ApplyWorkspaceEditResult,
  ConfigurationRequest,
  RegistrationRequest,
  UnregistrationRequest,
  WorkspaceFoldersRequest,
} from 'vscode-languageserver-protocol';
import { METHOD_NOT_FOUND, RpcResponseError } from '../rpc/connection.js';
import { toUri } from '../util/paths.js';

/** Applies an edit a server sends back while one of our commands runs (all or nothing). */
export type ApplyEditHandler = (params: ApplyWorkspaceEditParams) => Promise<ApplyWorkspaceEditResult>;

/** What answering a server's requests needs to know and may change. */
export interface ServerRequestContext {
  readonly root: string;
  /** The answers to `workspace/configuration`, as a tree of sections. */
  settings(): Readonly<Record<string, unknown>>;
  /** Dynamic registrations by id (pyright registers pull diagnostics this way). */
  readonly registrations: Map<string, { method: string; options: unknown }>;
  /** Called after a registration, so waiters can switch to pull diagnostics. */
  registered(): void;
  /** Set while lsp_fix runs a server command; edits sent at any other time are declined. */
  readonly applyEdit?: ApplyEditHandler | undefined;
}

/**
 * Answers the requests a server sends to its client. `workspace/applyEdit` is taken only while lsp_fix runs
 * one of the server's commands, and declined otherwise; refresh requests and progress creation are acknowledged; anything unknown is
 * "method not found", which servers handle.
 */
export function answerServerRequest(method: string, params: unknown, context: ServerRequestContext): unknown {
  switch (method) {
    case ConfigurationRequest.method: {
      const settings = context.settings();
      const items = ((params ?? {}) as { items?: Array<{ section?: string }> }).items ?? [];
      return items.map((item) => lookupSection(settings, item.section));
    }
    case RegistrationRequest.method: {
      const list = ((params ?? {}) as { registrations?: Array<{ id: string; method: string; registerOptions?: unknown }> }).registrations ?? [];
      for (const r of list) context.registrations.set(r.id, { method: r.method, options: r.registerOptions });
      context.registered();
      return null;
    }
    case UnregistrationRequest.method: {
      const list = ((params ?? {}) as { unregisterations?: Array<{ id: string }> }).unregisterations ?? [];
      for (const r of list) context.registrations.delete(r.id);
      return null;
    }
    case WorkspaceFoldersRequest.method:
      return [{ uri: toUri(context.root), name: basename(context.root) }];
    case ApplyWorkspaceEditRequest.method:
      if (context.applyEdit) return context.applyEdit(params as ApplyWorkspaceEditParams);
      return { applied: false, failureReason: 'This client applies edits only while lsp_fix runs a command of the server.' };
    case 'window/showDocument':
      return { success: false };
    case 'window/workDoneProgress/create':
    case 'window/showMessageRequest':
    case 'workspace/diagnostic/refresh':
    case 'workspace/semanticTokens/refresh':
    case 'workspace/inlayHint/refresh':
    case 'workspace/inlineValue/refresh':
    case 'workspace/codeLens/refresh':
    case 'workspace/foldingRange/refresh':
      return null;
    default:
      throw new RpcResponseError(METHOD_NOT_FOUND, `Unhandled method ${method}`);
  }
}

/** Looks up a dotted section (`python.analysis`) in a settings tree; null when absent, as LSP expects. */
export function lookupSection(settings: Readonly<Record<string, unknown>>, section: string | undefined): unknown {
  if (!section) return settings;
  let node: unknown = settings;
  for (const part of section.split('.')) {
    if (node === null || typeof node !== 'object') return null;
    node = (node as Record<string, unknown>)[part];
  }
  return node ?? null;
}
