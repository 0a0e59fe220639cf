/** The mock's own errors, one table, so every Error body has one shape and `status` is the HTTP status (D5). */
import type { ApiError } from '../contract/index.js';

export type MockErrorSpec = Readonly<{ status: number; code: string; message: string }>;

/** The errors any adapter can give; the socket's own are server.ts's, so the MSW entry does not carry them. */
export const CORE_ERRORS = {
  unauthorized: {
    status: 401,
    code: 'unauthorized',
    message: 'Missing or invalid API key. Send the header "Authorization: Bearer <API_KEY>".',
  },
  orderNotFound: { status: 404, code: 'order_not_found', message: 'No order has id {id}.' },
  orderAlreadyShipped: {
    status: 409,
    code: 'order_already_shipped',
    message: 'Order {id} has already shipped and cannot be cancelled.',
  },
  petNotFound: { status: 404, code: 'not_found', message: 'No pet has id {id}.' },
  notFound: { status: 404, code: 'not_found', message: 'No such path.' },
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
  internalError: {
    status: 500,
    code: 'internal_error',
    message: 'The mock hit a bug. Please report it with the request that caused it.',
  },
} as const satisfies Record<string, MockErrorSpec>;

export type MockErrorName = keyof typeof CORE_ERRORS;

/** An error to send: a table entry, optionally with a message that names the specific thing. */
export interface MockError {
  readonly spec: MockErrorSpec;
  readonly message: string;
  /** Extra response headers (`Allow`, `WWW-Authenticate`). */
  readonly headers?: Readonly<Record<string, string>>;
  /** The body's JSON, when built once ahead (the 401 every refused request gets). */
  readonly json?: string;
}

/** An error of the table, its `{id}` filled or its message replaced by one naming the problem. */
export function mockError(
  name: MockErrorName,
  detail: { id?: string | bigint; message?: string; headers?: Readonly<Record<string, string>> } = {},
): MockError {
  const spec: MockErrorSpec = CORE_ERRORS[name];
  // A function, not a replacement string: an id is echoed as sent, `$&` included.
  const message = detail.message ?? spec.message.replace('{id}', () => clip(String(detail.id ?? '?')));
  return detail.headers ? { spec, message, headers: detail.headers } : { spec, message };
}

const ENTRIES = Object.entries(CORE_ERRORS) as Array<[MockErrorName, MockErrorSpec]>;

/** The table entry with this code and status (the first where two share them), for the document's transitions. */
export function errorNameFor(code: string, status: number): MockErrorName | undefined {
  return ENTRIES.find(([, spec]) => spec.code === code && spec.status === status)?.[0];
}

export function errorJson({ spec, message, json }: MockError): string {
  return json ?? JSON.stringify({ code: spec.code, message, status: spec.status } satisfies ApiError);
}

/** Echoed input stays short, so a 10 kB path cannot make a 10 kB error message. */
export function clip(text: string, max = 64): string {
  return text.length > max ? `${text.slice(0, max - 3)}...` : text;
}
