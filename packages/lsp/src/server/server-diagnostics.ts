import {
  type DocumentDiagnosticReport,
  DocumentDiagnosticRequest,
  type Diagnostic as LspDiagnostic,
  type ServerCapabilities,
  WorkspaceDiagnosticRequest,
  type WorkspaceDocumentDiagnosticReport,
} from 'vscode-languageserver-protocol';
import type { ServerConfig } from '../config/server-config.js';
import { LspError } from '../errors.js';
import type { PositionMapper } from '../position/position-mapper.js';
import type { RequestTypeLike } from '../rpc/connection.js';
import { displayPath, fromUri } from '../util/paths.js';
import type { OpenDocument } from './documents.js';
import type { PublishedDiagnostics } from './published-diagnostics.js';

const WORKSPACE_RESULT_TIMEOUT_FACTOR = 3;

/** What fetching diagnostics needs from the server it asks. */
export interface DiagnosticsChannel {
  readonly config: ServerConfig;
  readonly label: string;
  readonly cwd: string;
  capabilities(): ServerCapabilities;
  /** Dynamic registrations by id (pyright registers pull diagnostics this way). */
  readonly registrations: ReadonlyMap<string, { method: string; options: unknown }>;
  readonly published: PublishedDiagnostics;
  readonly positions: PositionMapper;
  request<P, R>(type: RequestTypeLike<P, R>, params: P, options: { timeoutMs?: number; signal?: AbortSignal }): Promise<R>;
  executeCommand(command: string, args: readonly unknown[], timeoutMs?: number, signal?: AbortSignal): Promise<unknown>;
  /** Throws when the server is gone. */
  assertRunning(method: string): void;
}

/**
 * How one server's diagnostics are fetched: from the configuration's puller (tsserver's synchronous check), by
 * pulling where the server offers it, or from the publish of the version just sent. Kept apart from the
 * server's process lifecycle: this is about which answer belongs to which document version.
 */
export class ServerDiagnostics {
  readonly #channel: DiagnosticsChannel;

  constructor(channel: DiagnosticsChannel) {
    this.#channel = channel;
  }

  /** Whether the server pulls diagnostics (statically, or by a registration like pyright's). */
  get pulls(): boolean {
    if (this.#channel.capabilities().diagnosticProvider) return true;
    return [...this.#channel.registrations.values()].some((r) => r.method === DocumentDiagnosticRequest.method);
  }

  /** Whether the server offers whole-workspace diagnostics. */
  get workspace(): boolean {
    const provider = this.#channel.capabilities().diagnosticProvider;
    if (provider && 'workspaceDiagnostics' in provider && provider.workspaceDiagnostics) return true;
    return [...this.#channel.registrations.values()].some(
      (r) =>
        r.method === DocumentDiagnosticRequest.method &&
        (r.options as { workspaceDiagnostics?: boolean } | undefined)?.workspaceDiagnostics === true,
    );
  }

  /**
   * The diagnostics of an open document's current version: from the configuration's puller, by pulling, or
   * by waiting for the publish of that version (a publish after the sync, then a short quiet period, for
   * servers that do not say which version they checked). Rejects with `timeout` when `deadline` passes.
   */
  async of(doc: OpenDocument, deadline: number, signal?: AbortSignal): Promise<readonly LspDiagnostic[]> {
    const list = await this.#fetch(doc, deadline, signal);
    const positions = this.#channel.positions;
    return positions.active ? list.map((d) => ({ ...d, range: positions.range(doc.path, d.range) })) : list;
  }

  async #fetch(doc: OpenDocument, deadline: number, signal?: AbortSignal): Promise<readonly LspDiagnostic[]> {
    const channel = this.#channel;
    const remaining = (): number => Math.max(1, deadline - Date.now());
    const puller = channel.config.pullDiagnostics;
    if (puller) {
      return puller({
        path: doc.path,
        uri: doc.uri,
        timeoutMs: remaining(),
        execute: (command, args, timeoutMs) => channel.executeCommand(command, args, timeoutMs, signal),
      });
    }
    for (;;) {
      if (signal?.aborted) throw new LspError('cancelled', `Waiting for diagnostics of ${doc.path} was cancelled.`);
      channel.assertRunning('textDocument/diagnostic');
      if (this.pulls) return this.#pull(doc, remaining(), signal);
      const published = channel.published.settled(doc.path, doc.version, doc.syncSeq);
      if (published) {
        if (published.version !== undefined) return published.diagnostics;
        return channel.published.quiet(doc.path, doc.version, channel.config.publishQuietMs ?? 200, deadline, signal);
      }
      if (Date.now() >= deadline) {
        throw new LspError('timeout', `${channel.label} did not report diagnostics of ${displayPath(doc.path, channel.cwd)} in time.`);
      }
      await channel.published.next(deadline, signal);
    }
  }

  /** Whole-workspace diagnostics, for servers that offer them. */
  async workspaceReport(timeoutMs: number, signal?: AbortSignal): Promise<Map<string, readonly LspDiagnostic[]>> {
    const identifier = this.#identifier();
    const report = await this.#channel.request(
      WorkspaceDiagnosticRequest.type,
      { previousResultIds: [], ...(identifier ? { identifier } : {}) },
      { timeoutMs: timeoutMs * WORKSPACE_RESULT_TIMEOUT_FACTOR, ...(signal ? { signal } : {}) },
    );
    const byFile = new Map<string, readonly LspDiagnostic[]>();
    for (const item of (report?.items ?? []) as WorkspaceDocumentDiagnosticReport[]) {
      const path = fromUri(item.uri);
      if (path && item.kind === 'full') byFile.set(path, item.items.map((d) => ({ ...d, range: this.#channel.positions.range(path, d.range) })));
    }
    return byFile;
  }

  #identifier(): string | undefined {
    const provider = this.#channel.capabilities().diagnosticProvider;
    if (provider && 'identifier' in provider && provider.identifier) return provider.identifier;
    for (const registration of this.#channel.registrations.values()) {
      if (registration.method !== DocumentDiagnosticRequest.method) continue;
      const id = (registration.options as { identifier?: string } | undefined)?.identifier;
      if (id) return id;
    }
    return undefined;
  }

  async #pull(doc: OpenDocument, timeoutMs: number, signal?: AbortSignal): Promise<readonly LspDiagnostic[]> {
    const identifier = this.#identifier();
    const report: DocumentDiagnosticReport = await this.#channel.request(
      DocumentDiagnosticRequest.type,
      { textDocument: { uri: doc.uri }, ...(identifier ? { identifier } : {}) },
      { timeoutMs, ...(signal ? { signal } : {}) },
    );
    if (report && report.kind === 'full') return report.items;
    // "unchanged" only answers a previousResultId, which is never sent; fall back to what was pushed.
    return this.#channel.published.get(doc.path)?.diagnostics ?? [];
  }
}
