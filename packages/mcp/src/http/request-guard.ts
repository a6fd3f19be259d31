import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** Who may talk to the HTTP server. */
export interface GuardOptions {
  /** Host names (without port) a request's Host header may name. */
  readonly allowedHosts: readonly string[];
  /** Origins (`scheme://host[:port]`) a browser request may come from, besides those on an allowed host. */
  readonly allowedOrigins: readonly string[];
  /** When set, every request must carry `Authorization: Bearer <token>`. */
  readonly token?: string;
}

/** Why a request is refused: the HTTP status, and a sentence for whoever set the client up. */
export interface Refusal {
  readonly status: 401 | 403;
  readonly message: string;
}

/** The names of the loopback interface a Host header may carry. */
export const LOOPBACK_HOSTS: readonly string[] = Object.freeze(['localhost', '127.0.0.1', '[::1]', '::1']);

/** Whether an address to listen on is a loopback one. */
export function isLoopback(host: string): boolean {
  return LOOPBACK_HOSTS.includes(host) || host.startsWith('127.');
}

/**
 * Refuses what a DNS-rebinding page or a stranger would send, as the MCP transport spec requires: a Host header
 * that does not name this server (a rebound domain resolving to 127.0.0.1 still sends its own name), an Origin
 * that is neither on an allowed host nor an allowed origin (403), and a missing or wrong bearer token (401).
 */
export function refusal(req: IncomingMessage, options: GuardOptions): Refusal | undefined {
  const host = hostname(req.headers.host);
  if (!host || !options.allowedHosts.includes(host)) {
    return { status: 403, message: `Host "${req.headers.host ?? ''}" is not allowed; start the server with --allow-host for it.` };
  }
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== 'null' && !options.allowedOrigins.includes(origin)) {
    let originHost: string | undefined;
    try {
      originHost = new URL(origin).hostname;
    } catch {
      // new URL raises only TypeError, for an Origin that is not a URL: treated as none.
      originHost = undefined;
    }
    if (!originHost || !options.allowedHosts.includes(bracketed(originHost))) {
      return { status: 403, message: `Origin "${origin}" is not allowed; start the server with --allow-origin for it.` };
    }
  } else if (origin === 'null') {
    return { status: 403, message: 'Requests from an opaque origin ("null") are not allowed.' };
  }
  if (options.token !== undefined && !tokenMatches(req.headers.authorization, options.token)) {
    return { status: 401, message: 'A bearer token is required: send "Authorization: Bearer <token>".' };
  }
  return undefined;
}

/** The host name of a Host header, lower-cased, without its port (an IPv6 address keeps its brackets). */
function hostname(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const value = header.trim().toLowerCase();
  if (value.startsWith('[')) {
    const end = value.indexOf(']');
    return end === -1 ? undefined : value.slice(0, end + 1);
  }
  return value.split(':')[0];
}

/** URL's hostname of an IPv6 origin is bracketed already; this keeps the comparison uniform. */
function bracketed(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host.toLowerCase();
}

/** Compares in constant time, so the token cannot be guessed byte by byte from response times. */
function tokenMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer\s+(.+)$/i.exec(header ?? '');
  if (!match) return false;
  const given = Buffer.from((match[1] as string).trim());
  const wanted = Buffer.from(token);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}
