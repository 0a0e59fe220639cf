/** One request, read defensively: a time limit, redirects as they are, a body cap; every failure a value. */
import { once } from 'node:events';
import { isIP } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { connect } from 'node:tls';
import type { HttpOutcome, HttpRequest, TransportError, TransportErrorKind } from '../judge/http-outcome.js';
import type { ResolvedOptions } from './options.js';

export type HttpClientOptions = Pick<ResolvedOptions, 'timeoutMs' | 'maxBodyBytes' | 'fetch' | 'signal'>;

const NOT_TLS = 'the target does not speak https at this address; is it plain http?';

/** Each failure by `code message`, first match wins; `$1` in the message is the code. */
const FAILURES: ReadonlyArray<[RegExp, TransportErrorKind, string]> = [
  [
    /^(ECONNREFUSED|EHOSTUNREACH|ENETUNREACH|EADDRNOTAVAIL|UND_ERR_CONNECT_TIMEOUT) /,
    'refused',
    'could not connect ($1)',
  ],
  [/^(ENOTFOUND|EAI_AGAIN) /, 'unresolved', 'could not connect ($1)'],
  [/^(ERR_SSL_\S*|EPROTO) /, 'tls', `the TLS handshake failed ($1): ${NOT_TLS}`],
  [
    /^(\S*(?:SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER|CERT_ALTNAME)\S*|CERT_\S*) /,
    'tls',
    "the target's TLS certificate was not accepted ($1); give Node the CA with NODE_EXTRA_CA_CERTS",
  ],
  // A plain server that drops the ClientHello instead of answering it with a 400.
  [
    /^ECONNRESET .*before secure TLS connection/,
    'tls',
    `the connection closed during the TLS handshake (ECONNRESET): ${NOT_TLS}`,
  ],
  [
    /^(ECONNRESET|UND_ERR_SOCKET|EPIPE|ECONNABORTED) /,
    'reset',
    'the connection was closed or reset before a complete response ($1)',
  ],
  // The Fetch standard's "bad ports" (6000, 10080, …), refused without trying them.
  [
    /\bbad port\b/,
    'blocked-port',
    "fetch refuses this port: it is on the Fetch standard's list of blocked ports",
  ],
];

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

function classify(error: unknown): TransportError {
  const { code, text } = unwrap(error);
  for (const [pattern, kind, message] of FAILURES) {
    const match = pattern.exec(`${code ?? ''} ${text}`);
    if (match) return { kind, message: message.replace('$1', match[1] ?? '') };
  }
  return { kind: 'other', message: `the request failed: ${text}` };
}

/** Sends one request. Never throws: every failure is an `{ ok: false }` value that says what happened. */
export async function send(request: HttpRequest, options: HttpClientOptions): Promise<HttpOutcome> {
  const controller = new AbortController();
  // What the client itself decided (a time-out, a body over the cap), whatever error it surfaces as.
  let failure: TransportError | undefined;
  const stop = (kind: TransportError['kind'], message: string) => {
    failure ??= { kind, message };
    controller.abort();
    return new Error(message);
  };
  // Raced, not only aborted: a custom fetch may ignore the signal.
  const deadline = sleep(options.timeoutMs, null, { signal: controller.signal }).then(() => {
    throw stop('timeout', `no complete response within ${options.timeoutMs} ms (time-out)`);
  });
  deadline.catch(() => undefined); // rejected by the abort below once the answer is in
  const work = (async () => {
    const { method, headers, body } = request;
    const response = await options.fetch(request.url, {
      method,
      headers,
      ...(body === undefined ? {} : { body }),
      redirect: 'manual',
      signal: options.signal ? AbortSignal.any([controller.signal, options.signal]) : controller.signal,
    });
    const chunks: Uint8Array[] = [];
    let total = 0;
    // Leaving the loop cancels the stream: the rest of a 50 MB body is never downloaded.
    for await (const chunk of response.body ?? []) {
      if (controller.signal.aborted) throw controller.signal.reason;
      total += chunk.byteLength;
      if (total > options.maxBodyBytes)
        throw stop(
          'too-large',
          `the response body exceeded ${options.maxBodyBytes} bytes; the suite stopped reading it`,
        );
      chunks.push(chunk);
    }
    const text = new TextDecoder().decode(Buffer.concat(chunks, total));
    return { status: response.status, headers: Object.fromEntries(response.headers), text, bytes: total };
  })();
  work.catch(() => undefined); // a rejection after the deadline is not unhandled
  try {
    return { ok: true, value: await Promise.race([work, deadline]) };
  } catch (error) {
    return { ok: false, error: failure ?? classify(error) };
  } finally {
    controller.abort();
  }
}

/** Whether a TLS handshake (any certificate) with `host:port` completes within `timeoutMs`. Never rejects. */
export async function speaksTls(host: string, port: number, timeoutMs: number): Promise<boolean> {
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  const servername = isIP(bare) === 0 ? { servername: bare } : {};
  const socket = connect({ host: bare, port, rejectUnauthorized: false, ...servername });
  try {
    await once(socket, 'secureConnect', { signal: AbortSignal.timeout(timeoutMs) });
    return true;
  } catch {
    return false; // an 'error' (refused, reset, not TLS) or the time limit
  } finally {
    socket.destroy();
  }
}
