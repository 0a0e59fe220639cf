/**
 * One request to the target, read defensively: a time limit on the whole exchange, redirects returned as
 * they are, a cap on the body bytes read. Built on `fetch` because callers may pass their own (an
 * in-process handler); every failure comes back as a value, so a hostile target cannot end the run.
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

/** Codes that mean the target could not be reached at all (exit 2), not that it misbehaved. */
const UNREACHABLE_CODES: Record<string, TransportErrorKind> = {
  ECONNREFUSED: 'refused',
  EHOSTUNREACH: 'refused',
  ENETUNREACH: 'refused',
  EADDRNOTAVAIL: 'refused',
  UND_ERR_CONNECT_TIMEOUT: 'refused',
  ENOTFOUND: 'unresolved',
  EAI_AGAIN: 'unresolved',
};

/** Certificates Node refuses: self-signed, an unknown issuer, expired, another name. */
const TLS_CERTIFICATE_CODE = /SELF_SIGNED|UNABLE_TO_(VERIFY|GET_ISSUER)|^CERT_|CERT_ALTNAME/;

const RESET_CODES = new Set(['ECONNRESET', 'UND_ERR_SOCKET', 'EPIPE', 'ECONNABORTED']);

const NOT_TLS = 'the target does not speak https at this address; is it plain http?';

/** The first code along an error's causes (and an AggregateError's first error), and their messages. */
function unwrap(error: unknown): { code: string | undefined; text: string } {
  const messages: string[] = [];
  let code: string | undefined;
  for (let current: unknown = error, depth = 0; current && depth < 5; depth++) {
    const record = current as { code?: unknown; errors?: unknown[]; cause?: unknown; message?: unknown };
    if (current instanceof Error) messages.push(current.message);
    if (code === undefined && typeof record.code === 'string') code = record.code;
    code ??= Array.isArray(record.errors) ? unwrap(record.errors[0]).code : undefined;
    current = record.cause;
  }
  return { code, text: messages.length > 0 ? messages.join(': ') : String(error) };
}

function classify(error: unknown, options: HttpClientOptions): TransportError {
  if (error instanceof ExchangeTimeout) {
    return { kind: 'timeout', message: `no complete response within ${options.timeoutMs} ms (time-out)` };
  }
  if (error instanceof BodyTooLarge) {
    return {
      kind: 'too-large',
      message: `the response body exceeded ${options.maxBodyBytes} bytes; the suite stopped reading it`,
    };
  }
  const { code, text } = unwrap(error);
  const unreachable = code === undefined ? undefined : UNREACHABLE_CODES[code];
  if (unreachable) return { kind: unreachable, message: `could not connect (${code})` };
  if (code?.startsWith('ERR_SSL_') || code === 'EPROTO') {
    return { kind: 'tls', message: `the TLS handshake failed (${code}): ${NOT_TLS}` };
  }
  if (code !== undefined && TLS_CERTIFICATE_CODE.test(code)) {
    return {
      kind: 'tls',
      message: `the target's TLS certificate was not accepted (${code}); give Node the CA with NODE_EXTRA_CA_CERTS`,
    };
  }
  // A plain server that drops the ClientHello instead of answering it with a 400.
  if (code === 'ECONNRESET' && text.includes('before secure TLS connection')) {
    return {
      kind: 'tls',
      message: `the connection closed during the TLS handshake (ECONNRESET): ${NOT_TLS}`,
    };
  }
  if (code !== undefined && RESET_CODES.has(code)) {
    return {
      kind: 'reset',
      message: `the connection was closed or reset before a complete response (${code})`,
    };
  }
  // fetch refuses the Fetch standard's "bad ports" (6000, 10080, …) without trying them.
  if (/\bbad port\b/.test(text)) {
    return {
      kind: 'blocked-port',
      message: "fetch refuses this port: it is on the Fetch standard's list of blocked ports",
    };
  }
  return { kind: 'other', message: `the request failed: ${text}` };
}

async function readCapped(response: Response, maxBytes: number, signal: AbortSignal): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  // Leaving the loop cancels the stream: the rest of a 50 MB body is never downloaded.
  for await (const chunk of response.body ?? []) {
    if (signal.aborted) throw signal.reason;
    total += chunk.byteLength;
    if (total > maxBytes) throw new BodyTooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, total);
}

/** Sends one request. Never throws: every failure is an `{ ok: false }` value that says what happened. */
export async function send(request: HttpRequest, options: HttpClientOptions): Promise<HttpOutcome> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  // Raced, not only aborted: a custom fetch may ignore the signal.
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
    const body = await readCapped(response, options.maxBodyBytes, controller.signal).catch((error) => {
      if (error instanceof BodyTooLarge) controller.abort(error);
      throw error;
    });
    return {
      status: response.status,
      headers,
      text: new TextDecoder().decode(body),
      bytes: body.byteLength,
    };
  };
  const work = exchange();
  work.catch(() => undefined); // a rejection after the deadline is not unhandled
  try {
    return { ok: true, value: await Promise.race([work, deadline]) };
  } catch (error) {
    return { ok: false, error: classify(controller.signal.reason ?? error, options) };
  } finally {
    clearTimeout(timer);
    if (!controller.signal.aborted) controller.abort();
  }
}
