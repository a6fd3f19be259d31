import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';

/** A kernel connection file, as Jupyter writes it for the kernel it launches. */
export interface ConnectionInfo {
  readonly ip: string;
  readonly transport: string;
  readonly key: string;
  readonly signature_scheme: string;
  readonly shell_port: number;
  readonly iopub_port: number;
  readonly stdin_port: number;
  readonly control_port: number;
  readonly hb_port: number;
}

/** A Jupyter message header. */
export interface Header {
  readonly msg_id: string;
  readonly session: string;
  readonly username: string;
  readonly date: string;
  readonly msg_type: string;
  readonly version: string;
}

/** A Jupyter message as it travels over the kernel's ZeroMQ sockets. */
export interface WireMessage {
  /** The ROUTER routing identities it came with (and goes back to). */
  readonly identities: readonly Buffer[];
  readonly header: Header;
  readonly parent_header: Header | Record<string, never>;
  readonly metadata: Record<string, unknown>;
  readonly content: Record<string, unknown>;
  readonly buffers: readonly Buffer[];
}

const DELIMITER = '<IDS|MSG>';
const PROTOCOL_VERSION = '5.3';

/** Signs and checks messages with the connection's key (HMAC-SHA256; an empty key means unsigned). */
export class Signer {
  readonly #key: string;
  readonly #algorithm: string;

  constructor(key: string, scheme: string) {
    this.#key = key;
    this.#algorithm = scheme.replace(/^hmac-/, '');
  }

  sign(parts: readonly (Buffer | string)[]): string {
    if (!this.#key) return '';
    const hmac = createHmac(this.#algorithm, this.#key);
    for (const part of parts) hmac.update(part);
    return hmac.digest('hex');
  }

  verify(signature: string, parts: readonly Buffer[]): boolean {
    if (!this.#key) return true;
    const expected = Buffer.from(this.sign(parts));
    const given = Buffer.from(signature);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }
}

/** Reads a multipart ZeroMQ message; `undefined` for a malformed or wrongly signed one. */
export function decode(frames: readonly Buffer[], signer: Signer): WireMessage | undefined {
  const at = frames.findIndex((frame) => frame.toString() === DELIMITER);
  if (at < 0 || frames.length < at + 6) return undefined;
  const [signature, header, parent, metadata, content] = frames.slice(at + 1, at + 6) as [Buffer, Buffer, Buffer, Buffer, Buffer];
  if (!signer.verify(signature.toString(), [header, parent, metadata, content])) return undefined;
  try {
    return {
      identities: frames.slice(0, at),
      header: JSON.parse(header.toString()) as Header,
      parent_header: JSON.parse(parent.toString()) as Header,
      metadata: JSON.parse(metadata.toString()) as Record<string, unknown>,
      content: JSON.parse(content.toString()) as Record<string, unknown>,
      buffers: frames.slice(at + 6),
    };
  } catch {
    // JSON.parse raises only SyntaxError: a malformed message is dropped, as Jupyter's own kernels do.
    return undefined;
  }
}

/** Serializes a message into ZeroMQ frames, signed. */
export function encode(message: Omit<WireMessage, 'buffers'> & { buffers?: readonly Buffer[] }, signer: Signer): Buffer[] {
  const parts = [message.header, message.parent_header, message.metadata, message.content].map((part) =>
    Buffer.from(JSON.stringify(part)),
  );
  return [
    ...message.identities,
    Buffer.from(DELIMITER),
    Buffer.from(signer.sign(parts)),
    ...parts,
    ...(message.buffers ?? []),
  ];
}

/** A fresh header for a message the kernel sends. */
export function header(msgType: string, session: string): Header {
  return {
    msg_id: randomUUID(),
    session,
    username: 'kernel',
    date: new Date().toISOString(),
    msg_type: msgType,
    version: PROTOCOL_VERSION,
  };
}

/** The protocol version the kernel speaks. */
export const KERNEL_PROTOCOL_VERSION = PROTOCOL_VERSION;
