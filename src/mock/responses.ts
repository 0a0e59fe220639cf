/** The engine's request and response values, and the helpers that build responses with the fixed headers. */
import { errorJson, type MockError } from './errors.js';
import type { Session } from './sessions.js';

/** Bytes of a body, on a plain ArrayBuffer (what `Response` accepts in every runtime's types). */
export type Bytes = Uint8Array<ArrayBuffer>;

const encoder = new TextEncoder();
export const utf8 = (text: string): Bytes => encoder.encode(text);

/** The request as the engine sees it, whatever carried it (socket, in-process `Request`, MSW). */
export interface CoreRequest {
  /** Upper-case method. */
  readonly method: string;
  /** The request target as sent: origin-form (`/v1/x?q`) or absolute-form. */
  readonly url: string;
  /** A header by lower-case name; repeated values joined with `, `, as WHATWG `Headers` joins them. */
  header(name: string): string | undefined;
  readonly body: Uint8Array | undefined;
}

export interface CoreResponse {
  status: number;
  headers: Record<string, string>;
  body: Bytes | string | undefined;
  /** The session the request belongs to, for its request log; none when it named no existing one. */
  session: Session | undefined;
  /** Milliseconds the adapter waits before answering (the global delay plus a fault's). */
  delayMs?: number;
  /** The body was left unread (too large): a socket closes after this answer, not read it as a request. */
  close?: boolean;
  /** A simulated dropped connection (D18): each adapter drops it its own way; status and body are moot. */
  drop?: boolean;
  /** The Error's `code` when the body is one, for the request log (the inspector's timeline). */
  code?: string;
}

/** A response, with no body or a JSON one: every body the mock sends is `application/json` (D15). */
export function jsonResponse(
  status: number,
  body: Bytes | string | undefined,
  session: Session | undefined,
  extra?: Readonly<Record<string, string>>,
): CoreResponse {
  const headers = body === undefined ? { ...extra } : { 'content-type': 'application/json', ...extra };
  return { status, headers, body, session };
}

/** The response for an Error of the table; its `status` is the HTTP status (D5). */
export function errorResponse(
  error: MockError,
  session: Session | undefined,
  extra?: Record<string, string>,
): CoreResponse {
  const { status, code } = error.spec;
  const headers = { 'content-type': 'application/json', ...error.headers, ...extra };
  return { status, headers, body: errorJson(error), session, code };
}
