/**
 * Sending one request to the target and reading its answer defensively: a time limit on the whole
 * exchange (headers and body), redirects reported instead of followed, and a cap on the body bytes read.
 * Whatever goes wrong comes back as a value, never as a throw, so a hostile target cannot end the run.
 */
import type {
  HttpOutcome,
  HttpRequest,
  HttpResponse,
  TransportError,
  TransportErrorKind,
} from '../judge/http-outcome.js';

export type { HttpOutcome, HttpRequest, HttpResponse, TransportError, TransportErrorKind };

export interface HttpClientOptions {
  timeoutMs: number;
  maxBodyBytes: number;
  fetch: typeof fetch;
}

class ExchangeTimeout extends Error {}
class BodyTooLarge extends Error {}

/** The error codes that mean the target could not be reached at all (exit 2), not that it misbehaved. */
const UNREACHABLE_CODES: Record<string, TransportErrorKind> = {
  ECONNREFUSED: 'refused',
  EHOSTUNREACH: 'refused',
  ENETUNREACH: 'refused',
  EADDRNOTAVAIL: 'refused',
  UND_ERR_CONNECT_TIMEOUT: 'refused',
  ENOTFOUND: 'unresolved',
  EAI_AGAIN: 'unresolved',
};

/** Certificates Node refuses: a wrong name, an unknown or self-signed issuer, an expired one. */
const TLS_CERTIFICATE_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

function errorCode(error: unknown): string | undefined {
  for (let current: unknown = error, depth = 0; current && depth < 5; depth++) {
    const record = current as { code?: unknown; errors?: unknown[]; cause?: unknown };
    if (typeof record.code === 'string') return record.code;
    if (Array.isArray(record.errors) && record.errors.length > 0) {
      const inner = errorCode(record.errors[0]);
      if (inner) return inner;
    }
    current = record.cause;
  }
  return undefined;
}

/** The messages of an error and its causes, for telling errors with the same code apart. */
function describeDeep(error: unknown): string {
  const parts: string[] = [];
  for (let current: unknown = error, depth = 0; current instanceof Error && depth < 5; depth++) {
    parts.push(current.message);
    current = current.cause;
  }
  return parts.join(': ');
}

function describe(error: unknown): string {
  const base = error instanceof Error ? error.message : String(error);
  const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${base}${cause}`;
}

export function classify(error: unknown, options: HttpClientOptions): TransportError {
  if (error instanceof ExchangeTimeout) {
    return { kind: 'timeout', message: `no complete response within ${options.timeoutMs} ms (time-out)` };
  }
  if (error instanceof BodyTooLarge) {
    return {
      kind: 'too-large',
      message: `the response body exceeded ${options.maxBodyBytes} bytes; the suite stopped reading it`,
    };
  }
  const code = errorCode(error);
  if (code && UNREACHABLE_CODES[code]) {
    return { kind: UNREACHABLE_CODES[code], message: `could not connect (${code})` };
  }
  if (code !== undefined && (code.startsWith('ERR_SSL_') || code === 'EPROTO')) {
    return {
      kind: 'tls',
      message: `the TLS handshake failed (${code}): the target does not speak https at this address; is it plain http?`,
    };
  }
  if (code !== undefined && TLS_CERTIFICATE_CODES.has(code)) {
    return {
      kind: 'tls',
      message: `the target's TLS certificate was not accepted (${code}); give Node the CA with NODE_EXTRA_CA_CERTS`,
    };
  }
  // A plain server that drops the ClientHello instead of answering it with a 400.
  if (code === 'ECONNRESET' && /before secure TLS connection/.test(describeDeep(error))) {
    return {
      kind: 'tls',
      message:
        'the connection closed during the TLS handshake (ECONNRESET): the target does not speak https at this address; is it plain http?',
    };
  }
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE' || code === 'ECONNABORTED') {
    return {
      kind: 'reset',
      message: `the connection was closed or reset before a complete response (${code})`,
    };
  }
  const text = describe(error);
  // fetch refuses the ports of the Fetch standard's "bad port" list (6000, 6665–6669, 10080, …) without
  // trying them; for the user that is an unreachable target, with a fix of its own.
  if (/\bbad port\b/.test(text)) {
    return {
      kind: 'blocked-port',
      message: "fetch refuses this port: it is on the Fetch standard's list of blocked ports",
    };
  }
  return { kind: 'other', message: `the request failed: ${text}` };
}

async function readCapped(response: Response, maxBytes: number, signal: AbortSignal): Promise<Uint8Array> {
  if (!response.body) return new Uint8Array();
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      if (signal.aborted) throw signal.reason;
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) throw new BodyTooLarge();
      chunks.push(value);
    }
  } catch (error) {
    // Stop the transfer: the rest of a 50 MB body is never downloaded.
    reader.cancel().catch(() => undefined);
    throw error;
  }
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

/**
 * Sends one request. Never throws: a time-out, a reset, an oversized body or a refused connection is an
 * `{ ok: false }` value whose message says what happened.
 *
 * @example const outcome = await send({ method: 'GET', url, headers: {} }, { timeoutMs: 10_000, maxBodyBytes: 1 << 20, fetch })
 */
export async function send(request: HttpRequest, options: HttpClientOptions): Promise<HttpOutcome> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  // The race guarantees the time limit even with a custom fetch that ignores the abort signal.
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const timeout = new ExchangeTimeout();
      controller.abort(timeout);
      reject(timeout);
    }, options.timeoutMs);
  });
  const exchange = async (): Promise<HttpResponse> => {
    const response = await options.fetch(request.url, {
      method: request.method,
      headers: request.headers,
      ...(request.body === undefined ? {} : { body: request.body }),
      redirect: 'manual',
      signal: controller.signal,
    });
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      headers[name.toLowerCase()] = value;
    });
    let body: Uint8Array;
    try {
      body = await readCapped(response, options.maxBodyBytes, controller.signal);
    } catch (error) {
      if (error instanceof BodyTooLarge) controller.abort(error);
      throw error;
    }
    return {
      status: response.status,
      headers,
      text: new TextDecoder('utf-8', { fatal: false }).decode(body),
      bytes: body.byteLength,
    };
  };
  const work = exchange();
  // A rejected `work` after the deadline must not surface as an unhandled rejection.
  work.catch(() => undefined);
  try {
    return { ok: true, value: await Promise.race([work, deadline]) };
  } catch (error) {
    return { ok: false, error: classify(controller.signal.reason ?? error, options) };
  } finally {
    clearTimeout(timer);
    if (!controller.signal.aborted) controller.abort();
  }
}
