/** Response values of the core, and the helpers that build them with the mock's fixed headers. */
import type { Bytes } from './bytes.js';
import type { HeaderMap } from './cors.js';
import { errorJson, type MockError, mockError } from './errors.js';
import type { Session } from './sessions.js';

export interface CoreResponse {
  status: number;
  headers: Record<string, string>;
  body: Bytes | string | undefined;
  /** The session the request belongs to, for its request log; none when it named no existing one. */
  session: Session | undefined;
  /** Milliseconds the adapter waits before answering (the global delay plus a fault's). */
  delayMs?: number;
  /**
   * The request's body was left unread (it was too large): on a socket the connection closes after this
   * answer rather than read that body as the next request.
   */
  close?: boolean;
  /** A simulated dropped connection (D18): each adapter drops it its own way; status and body are moot. */
  drop?: boolean;
  /** The Error's `code` when the body is one, for the request log (the inspector's timeline). */
  code?: string;
}

/** A JSON response: every body the mock sends is `application/json` (D15). */
export function jsonResponse(
  status: number,
  body: Bytes | string,
  session: Session | undefined,
  extra?: Readonly<Record<string, string>>,
): CoreResponse {
  return { status, headers: { 'content-type': 'application/json', ...extra }, body, session };
}

/** The response for an Error of the table, with `status` equal to the HTTP status (D5). */
export function errorResponse(
  error: MockError,
  session: Session | undefined,
  extra?: Record<string, string>,
): CoreResponse {
  const response = jsonResponse(error.spec.status, errorJson(error), session, { ...error.headers, ...extra });
  return { ...response, code: error.spec.code };
}

export function emptyResponse(
  status: number,
  session: Session | undefined,
  extra?: Record<string, string>,
): CoreResponse {
  return { status, headers: { ...extra }, body: undefined, session };
}

/** Bodies the mock reads at most; the API takes none, control bodies are small. */
export const MAX_BODY_BYTES = 64 * 1024;

/**
 * The 413 for a body over {@link MAX_BODY_BYTES}, answered before the core runs (engine.ts), with the
 * CORS headers the core would add (D14); the body stays unread, so the connection closes after it.
 */
export function payloadTooLarge(corsHeaders: HeaderMap, extra?: Record<string, string>): CoreResponse {
  const error = mockError('payloadTooLarge', {
    message: `The request body is larger than ${MAX_BODY_BYTES} bytes.`,
  });
  return { ...errorResponse(error, undefined, { ...corsHeaders, ...extra }), close: true };
}
