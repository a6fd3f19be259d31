import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createMessageConnection, type MessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-languageserver-protocol/node';

/** A diagnostic as a server publishes it (the fields the tests compare). */
export interface PublishedDiagnostic {
  readonly range: { readonly start: { readonly line: number; readonly character: number } };
  readonly severity?: number;
  readonly code?: string | number;
  readonly source?: string;
  readonly message: string;
}

/** How to start a server for the oracle, written out here so it does not depend on the package's configuration. */
export interface DirectServer {
  readonly command: string;
  readonly args: readonly string[];
  readonly languageId: (file: string) => string;
  readonly initializationOptions?: unknown;
  /** Answers to workspace/configuration by section. */
  readonly settings?: Record<string, unknown>;
  /** Offer pull diagnostics (textDocument/diagnostic): an answer that is complete, where a publication may be early. */
  readonly pullDiagnostics?: boolean;
  /** A log line that says the server has loaded the workspace. */
  readonly loaded?: RegExp;
}

/**
 * The oracle of the differential tests: a language server driven directly through vscode-jsonrpc, with none of
 * the package's code between the test and the server. It waits until the server is idle (no work-done progress,
 * the workspace loaded) and asks until two answers in a row agree, so its answer is the complete one.
 */
export class DirectClient implements AsyncDisposable {
  readonly #child: ChildProcessWithoutNullStreams;
  readonly #connection: MessageConnection;
  readonly #root: string;
  readonly #server: DirectServer;
  readonly #progress = new Set<string | number>();
  readonly #opened = new Set<string>();
  readonly #published = new Map<string, { version?: number; diagnostics: PublishedDiagnostic[]; at: number }>();
  #loaded: boolean;

  private constructor(root: string, server: DirectServer) {
    this.#root = root;
    this.#server = server;
    this.#loaded = server.loaded === undefined;
    this.#child = spawn(server.command, [...server.args], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, GOTOOLCHAIN: 'local' }, detached: true });
    this.#child.stderr.resume();
    this.#connection = createMessageConnection(new StreamMessageReader(this.#child.stdout), new StreamMessageWriter(this.#child.stdin));
    this.#connection.onRequest((method, params) => {
      if (method === 'workspace/configuration') {
        const items = (params as { items: Array<{ section?: string }> }).items;
        return items.map((item) => (item.section ? (server.settings?.[item.section] ?? null) : (server.settings ?? null)));
      }
      if (method === 'workspace/workspaceFolders') return [{ uri: pathToFileURL(root).href, name: basename(root) }];
      return null;
    });
    this.#connection.onUnhandledProgress(({ token, value }) => {
      const kind = (value as { kind?: string }).kind;
      if (kind === 'begin') this.#progress.add(token);
      if (kind === 'end') this.#progress.delete(token);
    });
    this.#connection.onNotification('window/logMessage', (params: { message: string }) => {
      if (server.loaded?.test(params.message)) this.#loaded = true;
    });
    this.#connection.onNotification('textDocument/publishDiagnostics', (params: { uri: string; version?: number; diagnostics: PublishedDiagnostic[] }) => {
      this.#published.set(params.uri, { ...(params.version === undefined ? {} : { version: params.version }), diagnostics: params.diagnostics, at: Date.now() });
    });
    this.#connection.onNotification(() => {});
    this.#connection.listen();
  }

  /** Starts and initializes a server for a root. */
  static async start(root: string, server: DirectServer): Promise<DirectClient> {
    const client = new DirectClient(root, server);
    const uri = pathToFileURL(root).href;
    await client.#connection.sendRequest('initialize', {
      processId: process.pid,
      rootUri: uri,
      workspaceFolders: [{ uri, name: basename(root) }],
      initializationOptions: server.initializationOptions ?? null,
      capabilities: {
        window: { workDoneProgress: true },
        workspace: { configuration: true, workspaceFolders: true },
        // A client that offers go-to-declaration (as editors and the package do): pyright then answers definition
        // with the source and leaves stubs to declaration.
        textDocument: {
          hover: { contentFormat: ['markdown', 'plaintext'] },
          definition: { linkSupport: true },
          declaration: { linkSupport: true },
          references: {},
          ...(server.pullDiagnostics ? { diagnostic: {} } : {}),
        },
      },
    });
    client.#connection.sendNotification('initialized', {});
    return client;
  }

  /** Opens a file (once). */
  open(path: string): string {
    const uri = pathToFileURL(path).href;
    if (!this.#opened.has(path)) {
      this.#opened.add(path);
      this.#connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: this.#server.languageId(path), version: 1, text: readFileSync(path, 'utf8') } });
    }
    return uri;
  }

  /** Waits until the server reports no work in progress and has loaded the workspace, for `quietMs` in a row. */
  async idle(timeoutMs = 300_000, quietMs = 1500): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    let quietSince = Date.now();
    while (Date.now() < deadline) {
      if (this.#progress.size > 0 || !this.#loaded) quietSince = Date.now();
      else if (Date.now() - quietSince >= quietMs) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`the oracle server for ${this.#root} did not become idle`);
  }

  /**
   * The diagnostics the server last published for each of `paths` (opened here if not yet), once every one has
   * been published and none changed for `quietMs` with the server idle.
   */
  async publishedFor(paths: readonly string[], timeoutMs = 600_000, quietMs = 2000): Promise<Map<string, PublishedDiagnostic[]>> {
    const uris = paths.map((path) => this.open(path));
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      await this.idle(Math.max(1, deadline - Date.now()));
      const latest = Math.max(0, ...uris.map((uri) => this.#published.get(uri)?.at ?? Number.POSITIVE_INFINITY));
      if (Number.isFinite(latest) && Date.now() - latest >= quietMs && this.#progress.size === 0) break;
      if (Date.now() > deadline) throw new Error(`the oracle server for ${this.#root} did not publish diagnostics of every file`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    return new Map(paths.map((path, i) => [path, this.#published.get(uris[i] as string)?.diagnostics ?? []]));
  }

  /** The diagnostics of each of `paths` by pull (textDocument/diagnostic), each asked until two answers agree. */
  async pulledFor(paths: readonly string[]): Promise<Map<string, PublishedDiagnostic[]>> {
    const out = new Map<string, PublishedDiagnostic[]>();
    for (const path of paths) {
      const uri = this.open(path);
      const report = await this.stable<{ items?: PublishedDiagnostic[] }>('textDocument/diagnostic', { textDocument: { uri } });
      out.set(path, report.items ?? []);
    }
    return out;
  }

  /** Sends a notification (debugging aid). */
  notify(method: string, params: unknown): Promise<void> {
    return this.#connection.sendNotification(method, params);
  }

  /** The last publication for a path (debugging aid). */
  lastPublished(path: string): { version?: number; diagnostics: PublishedDiagnostic[]; at: number } | undefined {
    return this.#published.get(pathToFileURL(path).href);
  }

  /** Asks once. */
  ask<T>(method: string, params: unknown): Promise<T> {
    return this.#connection.sendRequest(method, params) as Promise<T>;
  }

  /** Asks until two answers in a row are the same (a server still settling answers differently). */
  async stable<T>(method: string, params: unknown): Promise<T> {
    let previous = JSON.stringify(await this.#connection.sendRequest(method, params));
    for (let i = 0; i < 5; i++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      const next = JSON.stringify(await this.#connection.sendRequest(method, params));
      if (next === previous) return JSON.parse(next) as T;
      previous = next;
    }
    throw new Error(`the oracle's answers to ${method} did not settle`);
  }

  async [Symbol.asyncDispose](): Promise<void> {
    const shutdown = this.#connection.sendRequest('shutdown').catch(() => undefined);
    await Promise.race([shutdown, new Promise((resolve) => setTimeout(resolve, 2000))]);
    // The process is killed below: an exit that cannot be written any more is no failure.
    await this.#connection.sendNotification('exit').catch(() => undefined);
    this.#connection.dispose();
    // Its own group: tsserver under typescript-language-server goes too.
    try {
      process.kill(-(this.#child.pid as number), 'SIGKILL');
    } catch {
      this.#child.kill('SIGKILL');
    }
  }
}
