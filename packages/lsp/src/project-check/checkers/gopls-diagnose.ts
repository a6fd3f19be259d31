/**
 * `gopls check` with a client that keeps every answer: `node gopls-diagnose.js <gopls>` with the Go files on stdin,
 * NUL-separated. It prints what `gopls check` finds, one JSON {@link GoplsFinding} per line (with what `gopls check`
 * leaves out: the severity and the source, which tell a type error from an analyzer's finding), and fails the way
 * `gopls check` does (`gopls: …` on stderr, exit 1).
 *
 * Why not `gopls check` itself: the client inside gopls 0.11 keeps only the last diagnostics published for a file,
 * and gopls publishes each open file again from its background diagnosis while `gopls/diagnoseFiles` runs. On a
 * loaded machine the background set (vet's analyzers alone, before the type check) came last in 3 runs of 4, and
 * every type error of the file was lost without a sign. gopls later made its client merge every publish of the
 * check (golang/go#60122's de-duplication); this does the same with the gopls Debian ships.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ContentLengthReader, encodeContentLength } from '@agent-tools/core/process';

interface Position {
  readonly line: number;
  readonly character: number;
}
interface LspDiagnostic {
  readonly range: { readonly start: Position; readonly end: Position };
  readonly severity?: number;
  readonly code?: string | number;
  readonly source?: string;
  readonly message: string;
}
interface Message {
  readonly id?: number | string;
  readonly method?: string;
  readonly params?: { readonly uri?: string; readonly version?: number; readonly diagnostics?: LspDiagnostic[]; readonly items?: unknown[] };
  readonly result?: unknown;
  readonly error?: { readonly message: string };
}

const DONE_URI = 'gopls://diagnostics-done';

/** One line of the output: a diagnostic with 1-based byte columns, its LSP severity and gopls's source for it. */
export interface GoplsFinding {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly endLine: number;
  readonly endColumn: number;
  /** LSP's: 1 error, 2 warning, 3 information, 4 hint. */
  readonly severity: number;
  /** `compiler` (a type error), `syntax`, `go list`, or the analyzer's name (`printf`, `tests`). */
  readonly source: string;
  readonly message: string;
}

function fail(message: string): never {
  process.stderr.write(`gopls: ${message}\n`);
  process.exit(1);
}

/** A UTF-16 character offset of an LSP position as gopls check's 1-based byte column. */
function byteColumn(lines: readonly string[], position: Position): number {
  const line = lines[position.line] ?? '';
  return Buffer.byteLength(line.slice(0, position.character), 'utf8') + 1;
}

/** The 1-based line and byte column of the first byte that is not valid UTF-8, or undefined for valid UTF-8. */
function firstInvalidUtf8(bytes: Buffer): { line: number; column: number } | undefined {
  let line = 1;
  let start = 0;
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i] as number;
    if (b === 0x0a) {
      line++;
      start = ++i;
      continue;
    }
    const size = b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    const slice = bytes.subarray(i, i + size);
    if (size === 0 || slice.length < size || !Buffer.from(slice.toString('utf8'), 'utf8').equals(slice)) return { line, column: i - start + 1 };
    i += size;
  }
  return undefined;
}

async function main(): Promise<void> {
  const gopls = process.argv[2];
  if (!gopls) fail('usage: gopls-diagnose <gopls> < NUL-separated files');
  const files = readFileSync(0, 'utf8').split('\0').filter(Boolean);
  if (files.length === 0) return;
  const root = process.cwd();
  let finished = false;
  const child = spawn(gopls, ['serve'], { cwd: root, stdio: ['pipe', 'pipe', 'inherit'] });
  child.on('error', (error) => fail(`could not start ${gopls}: ${error.message}`));
  child.on('exit', (code, signal) => {
    if (!finished) fail(`gopls exited before the check ended (${signal ?? `code ${code}`})`);
  });
  let nextId = 0;
  const waiting = new Map<number, (message: Message) => void>();
  const send = (message: object) => child.stdin.write(encodeContentLength({ jsonrpc: '2.0', ...message }));
  const request = (method: string, params: unknown) =>
    new Promise<Message>((resolve) => {
      const id = ++nextId;
      waiting.set(id, resolve);
      send({ id, method, params });
    });

  // Every versioned publish between the request and gopls's end marker, merged per file without repeats.
  const found = new Map<string, Map<string, LspDiagnostic>>();
  let collecting = false;
  let done: () => void = () => {};
  const ended = new Promise<void>((resolve) => {
    done = resolve;
  });
  const handle = (message: Message) => {
    if (message.method && message.id !== undefined) {
      // gopls asks for its settings and to register capabilities: the defaults, and yes.
      const result = message.method === 'workspace/configuration' ? (message.params?.items ?? []).map(() => ({})) : null;
      send({ id: message.id, result });
      return;
    }
    if (message.id !== undefined) {
      waiting.get(Number(message.id))?.(message);
      return;
    }
    if (message.method !== 'textDocument/publishDiagnostics' || !collecting) return;
    const { uri, version, diagnostics = [] } = message.params ?? {};
    if (uri === DONE_URI) {
      collecting = false;
      done();
      return;
    }
    // Unversioned publishes are of files the check did not open (gopls's workspace pass): not its answer.
    if (!uri || !version) return;
    const merged = found.get(uri) ?? new Map<string, LspDiagnostic>();
    for (const d of diagnostics) merged.set(JSON.stringify([d.range, d.severity, d.code, d.source, d.message]), d);
    found.set(uri, merged);
  };
  // LSP's framing as core reads it for every server; what is not a message (a log line on stdout) is skipped, a
  // message that cannot be read ends the check.
  const reader = new ContentLengthReader({
    message: (message) => handle(message as Message),
    malformed: (reason, kind) => {
      if (kind !== 'stray-output') fail(`gopls sent what is not a message: ${reason}`);
    },
  });
  child.stdout.on('data', (chunk: Buffer) => reader.push(chunk));

  const rootUri = pathToFileURL(root).href;
  const init = await request('initialize', {
    processId: process.pid,
    rootUri,
    workspaceFolders: [{ uri: rootUri, name: 'root' }],
    capabilities: { workspace: { configuration: true }, textDocument: { publishDiagnostics: { versionSupport: true } } },
  });
  if (init.error) fail(init.error.message);
  send({ method: 'initialized', params: {} });
  // By path, not by URI: gopls spells a URI its own way (`(`, `)`, `'`, `!`, `*` percent-encoded, which Node leaves
  // as they are), and a finding whose file text is not found would get column 1.
  const texts = new Map<string, string>();
  const uris: string[] = [];
  const invalid: GoplsFinding[] = [];
  for (const file of files) {
    let bytes: Buffer;
    try {
      bytes = readFileSync(file);
    } catch (error) {
      fail(`cannot read ${file}: ${(error as Error).message}`);
    }
    const text = bytes.toString('utf8');
    // JSON carries no invalid UTF-8: gopls gets U+FFFD instead and never sees the compiler's syntax error, so it is
    // reported here, where `gopls check` and go build report it (the first one of the file).
    const bad = firstInvalidUtf8(bytes);
    if (bad) invalid.push({ file, ...bad, endLine: bad.line, endColumn: bad.column, severity: 1, source: 'syntax', message: 'illegal UTF-8 encoding' });
    const uri = pathToFileURL(file).href;
    texts.set(fileURLToPath(uri), text);
    uris.push(uri);
    send({ method: 'textDocument/didOpen', params: { textDocument: { uri, languageId: 'go', version: 1, text } } });
  }
  collecting = true;
  const answer = request('gopls/diagnoseFiles', { files: uris });
  const failed = await Promise.race([answer.then((m) => m.error), ended.then(() => undefined)]);
  if (failed) fail(failed.message);
  await ended;
  finished = true;

  const out: string[] = invalid.map((finding) => JSON.stringify(finding));
  for (const [uri, diagnostics] of found) {
    const file = fileURLToPath(uri);
    const lines = (texts.get(file) ?? '').split('\n');
    for (const d of diagnostics.values()) {
      const { start, end } = d.range;
      const finding: GoplsFinding = {
        file,
        line: start.line + 1,
        column: byteColumn(lines, start),
        endLine: end.line + 1,
        endColumn: byteColumn(lines, end),
        severity: d.severity ?? 1,
        source: d.source ?? '',
        message: d.message,
      };
      out.push(JSON.stringify(finding));
    }
  }
  process.stdout.write(out.length ? `${out.join('\n')}\n` : '');
  // The answer is out: gopls gets a moment to shut down cleanly, then is killed.
  setTimeout(() => child.kill('SIGKILL'), 2000).unref();
  const shutdown = await Promise.race([request('shutdown', null), new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 1500).unref())]);
  if (shutdown) send({ method: 'exit' });
  child.stdin.end();
  if (!shutdown) child.kill('SIGKILL');
}

main().catch((error: unknown) => fail(error instanceof Error ? error.message : String(error)));
