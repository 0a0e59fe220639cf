/**
 * The mock's own error responses: one table of named constants, so every Error body (§2, §7) has the
 * same shape and `status` always equals the HTTP status (D5). Codes follow D4; the ones beyond D4 are
 * the mock's own (bad `Prefer`, oversized requests, control-endpoint input) and are listed in docs/mock.md.
 */
import type { ApiError } from '../contract/index.js';

/** A named error of the table: the status, the `code` and a default message. */
export interface MockErrorSpec {
  readonly status: number;
  readonly code: string;
  readonly message: string;
}

export const MOCK_ERRORS = {
  unauthorized: {
    status: 401,
    code: 'unauthorized',
    message: 'Missing or invalid API key. Send the header `Authorization: Bearer <API_KEY>`.',
  },
  orderNotFound: { status: 404, code: 'order_not_found', message: 'No order has id {id}.' },
  orderAlreadyShipped: {
    status: 409,
    code: 'order_already_shipped',
    message: 'Order {id} has already shipped and cannot be cancelled.',
  },
  petNotFound: { status: 404, code: 'not_found', message: 'No pet has id {id}.' },
  notFound: {
    status: 404,
    code: 'not_found',
    // The mock's 404 names where the API lives, from the contract it serves (core.ts).
    message: 'No such path.',
  },
  methodNotAllowed: {
    status: 405,
    code: 'method_not_allowed',
    message: 'This method is not supported on this path; the Allow header lists the ones that are.',
  },
  originNotAllowed: {
    status: 403,
    code: 'origin_not_allowed',
    message:
      "The mock's control endpoints refuse requests from this page's origin: only local origins (localhost, 127.0.0.0/8, [::1]) and those named with --cors-origin may use them (D14).",
  },
  invalidPrefer: {
    status: 400,
    code: 'invalid_prefer',
    message: 'The Prefer header asks for a response this operation does not document.',
  },
  invalidParameter: {
    status: 400,
    code: 'invalid_parameter',
    message: 'A request parameter does not match its schema in the document (D21).',
  },
  invalidRequest: { status: 400, code: 'invalid_request', message: 'The request is malformed.' },
  invalidSession: {
    status: 400,
    code: 'invalid_session',
    message: 'X-Mock-Session must be 1 to 128 characters.',
  },
  payloadTooLarge: {
    status: 413,
    code: 'payload_too_large',
    message: 'The request body is too large for the mock.',
  },
  headersTooLarge: {
    status: 431,
    code: 'request_header_fields_too_large',
    message: 'The request headers are too large for the mock.',
  },
  requestTimeout: {
    status: 408,
    code: 'request_timeout',
    message: 'The request did not arrive in time; send it again.',
  },
  hostRequired: {
    status: 400,
    code: 'invalid_request',
    message: 'An HTTP/1.1 request needs a Host header (RFC 9112 §3.2).',
  },
  expectationFailed: {
    status: 417,
    code: 'expectation_failed',
    message: 'The mock meets only `Expect: 100-continue`; send the request without this Expect header.',
  },
  unsupportedTransferCoding: {
    status: 400,
    code: 'invalid_request',
    message:
      'The mock reads a body sent as is (Content-Length) or chunked, and no other Transfer-Encoding (RFC 9112 §6.1).',
  },
  internalError: {
    status: 500,
    code: 'internal_error',
    message: 'The mock hit a bug. Please report it with the request that caused it.',
  },
} as const satisfies Record<string, MockErrorSpec>;

export type MockErrorName = keyof typeof MOCK_ERRORS;

/** An error to send: a table entry, optionally with a message that names the specific thing. */
export interface MockError {
  readonly spec: MockErrorSpec;
  readonly message: string;
  /** Extra response headers (`Allow`, `WWW-Authenticate`). */
  readonly headers?: Readonly<Record<string, string>>;
  /** The Error body's JSON text, when it was written along with the error (see {@link errorJson}). */
  readonly json?: string;
}

/** What fills a message: `{id}` in the table's message, or a whole message naming the specific problem. */
export interface ErrorDetail {
  id?: string | bigint;
  message?: string;
  headers?: Readonly<Record<string, string>>;
}

/**
 * A table message that names the resource, split around its `{id}` once, as text and as the JSON text
 * of the whole Error body: an error built per request (the 404 and 409 of a cancel) is then written by
 * joining three strings. `JSON.stringify` costs about half a microsecond per call here, twice the rest
 * of such an error.
 */
interface IdTemplate {
  readonly text: readonly [string, string];
  readonly json: readonly [string, string];
}

const ID = '{id}';
const ID_TEMPLATES = new Map<MockErrorName, IdTemplate>();
for (const [name, spec] of Object.entries(MOCK_ERRORS) as Array<[MockErrorName, MockErrorSpec]>) {
  const at = spec.message.indexOf(ID);
  if (at === -1) continue;
  // `{id}` needs no escaping, so it stands in the JSON text as it does in the message.
  const json = writeErrorJson({ spec, message: spec.message });
  const jsonAt = json.indexOf(ID);
  ID_TEMPLATES.set(name, {
    text: [spec.message.slice(0, at), spec.message.slice(at + ID.length)],
    json: [json.slice(0, jsonAt), json.slice(jsonAt + ID.length)],
  });
}

/** Printable ASCII but `"` and `\`: what JSON writes as is inside a string (every id that names an order). */
const JSON_PLAIN = /^[ !#-[\]-~]*$/;

/** The JSON spelling of a string's content, without its quotes. */
function jsonStringContent(text: string): string {
  return JSON_PLAIN.test(text) ? text : JSON.stringify(text).slice(1, -1);
}

/**
 * Builds an error from the table.
 *
 * @example mockError('orderNotFound', { id: '404' }).message // 'No order has id 404.'
 */
export function mockError(name: MockErrorName, detail?: ErrorDetail): MockError {
  const spec: MockErrorSpec = MOCK_ERRORS[name];
  if (detail === undefined) return plainError(name, spec);
  const template = detail.message === undefined ? ID_TEMPLATES.get(name) : undefined;
  if (template === undefined) {
    const message = detail.message ?? spec.message;
    return detail.headers ? { spec, message, headers: detail.headers } : { spec, message };
  }
  const id = clip(String(detail.id ?? '?'));
  const message = template.text[0] + id + template.text[1];
  const json = template.json[0] + jsonStringContent(id) + template.json[1];
  return detail.headers ? { spec, message, headers: detail.headers, json } : { spec, message, json };
}

// An error without detail is the same value every time (404 for an unknown path, …), so it is built
// once, with its JSON text: the error paths stay close to a bare server.
const PLAIN = new Map<MockErrorName, MockError>();
function plainError(name: MockErrorName, spec: MockErrorSpec): MockError {
  let error = PLAIN.get(name);
  if (!error) {
    const message = spec.message.replace(ID, '?');
    error = Object.freeze({ spec, message, json: writeErrorJson({ spec, message }) });
    PLAIN.set(name, error);
  }
  return error;
}

/** The table entry with this code and status, for codes that the document names (transitions). */
export function errorNameFor(code: string, status: number): MockErrorName | undefined {
  return ERROR_NAMES.get(status)?.get(code);
}

// Looked up on every refused cancel, so built once rather than searched each time (by status, then
// code: no key string is built per request); the first entry with a code and status wins, as the
// table reads top down.
const ERROR_NAMES = new Map<number, Map<string, MockErrorName>>();
for (const [name, spec] of Object.entries(MOCK_ERRORS) as Array<[MockErrorName, MockErrorSpec]>) {
  let byCode = ERROR_NAMES.get(spec.status);
  if (!byCode) {
    byCode = new Map();
    ERROR_NAMES.set(spec.status, byCode);
  }
  if (!byCode.has(spec.code)) byCode.set(spec.code, name);
}

/** The Error body (§2) of an error. */
export function errorBody(error: MockError): ApiError {
  return { code: error.spec.code, message: error.message, status: error.spec.status };
}

const JSON_TEXT = new WeakMap<MockError, string>();

/**
 * The JSON text of the Error body; messages are plain strings, so JSON.stringify is exact here. An
 * error of the table that names an id or none carries its text already ({@link mockError}); the text of
 * another frozen error (one kept as a constant: the 401) is computed once; any other is written when
 * asked, since a WeakMap entry per request costs more than the text.
 */
export function errorJson(error: MockError): string {
  if (error.json !== undefined) return error.json;
  if (!Object.isFrozen(error)) return writeErrorJson(error);
  let text = JSON_TEXT.get(error);
  if (text === undefined) {
    text = writeErrorJson(error);
    JSON_TEXT.set(error, text);
  }
  return text;
}

/** What `JSON.stringify(errorBody(error))` writes, byte for byte (same keys, same order), without the object. */
function writeErrorJson(error: MockError): string {
  const { code, status } = error.spec;
  return `{"code":${JSON.stringify(code)},"message":${JSON.stringify(error.message)},"status":${status}}`;
}

/** Echoed input stays short, so a 10 kB path cannot make a 10 kB error message. */
export function clip(text: string, max = 64): string {
  return text.length > max ? `${text.slice(0, max - 3)}...` : text;
}
