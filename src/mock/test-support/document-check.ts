/**
 * Test helper: checks a response the mock sent against the document. A documented status of a documented
 * operation must match its schema exactly (contract.validateResponseBody); anything else must be an Error
 * whose `status` equals the HTTP status (D5); every body is application/json (D15); 204 has none.
 */
import { expect } from 'vitest';
import { defaultContract, parseExactJson } from '../../contract/index.js';

const contract = defaultContract();

export const KEY = 'petstore-dev-key';
export const AUTH = { authorization: `Bearer ${KEY}` } as const;

/** The operation a method and path name, found independently of the mock's router. */
export function operationFor(method: string, path: string): string | undefined {
  const pathname = path.split('?')[0] ?? '';
  for (const operation of contract.operations) {
    if (operation.method.toUpperCase() !== method.toUpperCase()) continue;
    const pattern = new RegExp(`^/v1${operation.path.replace(/\{[^}]+\}/g, '[^/]*')}$`);
    if (pattern.test(pathname)) return operation.operationId;
  }
  return undefined;
}

export interface Seen {
  status: number;
  contentType: string | null;
  text: string;
  /** The answer carries the simulated-fault marker (D18): a 5xx was asked for, so it is no failure. */
  simulated?: boolean;
}

/** Asserts the response conforms; returns the parsed body (exact) for further checks. */
export function expectConforms(method: string, path: string, seen: Seen): unknown {
  const { status, contentType, text } = seen;
  if (!seen.simulated) expect(status, `${method} ${path}: never 5xx`).toBeLessThan(500);
  if (status === 204) {
    expect(text, '204 has no body').toBe('');
    return undefined;
  }
  if (text === '' && method === 'HEAD') return undefined;
  expect(contentType ?? '', `${method} ${path} ${status}: media type`).toMatch(/^application\/json(;|$)/);
  const operationId = operationFor(method, path);
  if (operationId && contract.operation(operationId).statuses.includes(status) && status !== 400) {
    const verdict = contract.validateResponseBody(operationId, status, text);
    expect(verdict.ok ? [] : verdict.error, `${method} ${path} ${status} ${text.slice(0, 200)}`).toEqual([]);
  }
  const parsed = parseExactJson(text);
  expect(parsed.ok, `${method} ${path}: JSON body`).toBe(true);
  if (!parsed.ok) return undefined;
  if (status >= 400) {
    const verdict = contract.validateSchema('Error', parsed.value);
    expect(verdict.ok ? [] : verdict.error, `${method} ${path} ${status}: Error body ${text}`).toEqual([]);
    expect((parsed.value as { status: number }).status, 'Error.status equals the HTTP status (D5)').toBe(
      status,
    );
  }
  return parsed.value;
}

/** Reads a fetch Response and checks it. */
export async function conforming(
  method: string,
  path: string,
  response: Response,
): Promise<{ status: number; body: unknown; headers: Headers; text: string }> {
  const text = await response.text();
  const body = expectConforms(method, path, {
    status: response.status,
    contentType: response.headers.get('content-type'),
    text,
  });
  return { status: response.status, body, headers: response.headers, text };
}
