/** An exchange's answer as the judge sees it; a transport failure is a value, so a hostile target cannot end a run. */
import type { Result } from '../result.js';

export interface HttpRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  /** The fuzz phase sends some on DELETE. */
  body?: string;
}

export interface HttpResponse {
  status: number;
  /** Names lower-case. */
  headers: Record<string, string>;
  /** UTF-8, up to the cap. */
  text: string;
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
  message: string;
}

export type HttpOutcome = Result<HttpResponse, TransportError>;
