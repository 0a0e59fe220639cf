/** An exchange's answer as the judge sees it; a transport failure is a value, so a hostile target cannot end a run. */
import type { Result } from '../result.js';

export interface HttpRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  /** A body to send (the fuzz phase sends some on DELETE); none by default. */
  body?: string;
}

export interface HttpResponse {
  status: number;
  /** Header names lower-case. */
  headers: Record<string, string>;
  /** The body as UTF-8 text, up to the cap. */
  text: string;
  /** Bytes read (at most the cap). */
  bytes: number;
}

export type TransportErrorKind =
  | 'timeout'
  | 'refused'
  | 'unresolved'
  | 'blocked-port'
  | 'tls'
  | 'reset'
  | 'too-large'
  | 'other';

export interface TransportError {
  kind: TransportErrorKind;
  /** One line that says what happened, for the report. */
  message: string;
}

/** An answer, or why there was none. */
export type HttpOutcome = Result<HttpResponse, TransportError>;
