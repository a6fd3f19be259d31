/**
 * The oracle of the generated Content-Length tests: a straightforward parser of a whole stream at once (no chunks,
 * no state), written from the framing rules rather than from the reader:
 *
 * - a header block starts where `content-length:` or `content-type:` (any case) first appears; what comes before
 *   it is stray output;
 * - the block is lines ending in LF or CRLF, each a `Name: value` header, up to the first empty line; a line that
 *   is not a header, or a later line that holds a header start past its beginning, ends the block as malformed, and reading resumes
 *   at that line;
 * - a block longer than `maxHeader` bytes is malformed, and reading resumes one byte after its start;
 * - its first `Content-Length` line gives the body's length in bytes; none, or one that is not a safe integer,
 *   makes the block malformed; a length above `maxMessage` is skipped unread;
 * - a body that is not a JSON object is malformed and forgotten.
 */
export interface ReferenceResult {
  readonly messages: object[];
  readonly kinds: string[];
}

const HEADER_START = /content-(?:length|type)[ \t]*:/gi;
const HEADER_LINE = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+[ \t]*:/;
const LENGTH_LINE = /^content-length[ \t]*:[ \t]*(\d+)[ \t]*$/i;

/** Parses `bytes` as one whole stream. */
export function referenceParse(bytes: Buffer, maxMessage: number, maxHeader: number): ReferenceResult {
  const text = bytes.toString('latin1');
  const messages: object[] = [];
  const kinds: string[] = [];
  let pos = 0;
  for (;;) {
    HEADER_START.lastIndex = pos;
    const start = HEADER_START.exec(text);
    if (!start) break;
    if (start.index > pos) kinds.push('stray-output');
    pos = start.index;
    const block = readBlock(text, pos, maxHeader);
    if (block.kind === 'incomplete') break;
    if (block.kind === 'too-long') {
      kinds.push('bad-header');
      pos += 1;
      continue;
    }
    if (block.kind === 'bad-line') {
      kinds.push('bad-header');
      pos = block.end;
      continue;
    }
    pos = block.end;
    const length = block.lines.map((line) => LENGTH_LINE.exec(line)?.[1]).find((value) => value !== undefined);
    if (length === undefined || !Number.isSafeInteger(Number(length))) {
      kinds.push('bad-header');
      continue;
    }
    if (Number(length) > maxMessage) {
      kinds.push('oversized');
      pos += Number(length);
      continue;
    }
    if (pos + Number(length) > bytes.length) break;
    const body = bytes.subarray(pos, pos + Number(length));
    pos += Number(length);
    try {
      const value: unknown = JSON.parse(body.toString('utf8'));
      if (value !== null && typeof value === 'object' && !Array.isArray(value)) messages.push(value);
      else kinds.push('bad-body');
    } catch {
      kinds.push('bad-body');
    }
  }
  return { messages, kinds };
}

type Block =
  | { kind: 'ok'; lines: string[]; end: number }
  | { kind: 'bad-line'; end: number }
  | { kind: 'too-long' }
  | { kind: 'incomplete' };

function readBlock(text: string, start: number, maxHeader: number): Block {
  const lines: string[] = [];
  let at = start;
  for (;;) {
    const newline = text.indexOf('\n', at);
    if (newline < 0 || newline + 1 - start > maxHeader) {
      return text.length - start >= maxHeader ? { kind: 'too-long' } : { kind: 'incomplete' };
    }
    const line = text.slice(at, newline).replace(/\r$/, '');
    if (line === '') return { kind: 'ok', lines, end: newline + 1 };
    const startsAnother = lines.length > 0 && /.content-(?:length|type)[ \t]*:/i.test(line);
    if (!HEADER_LINE.test(line) || startsAnother) return { kind: 'bad-line', end: at };
    lines.push(line);
    at = newline + 1;
  }
}
