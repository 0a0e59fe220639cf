import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { defaultContract } from '../contract/index.js';
import { DOCUMENT_PATH } from '../contract/package-root.js';
import { CORE_ERRORS, errorBody, errorNameFor, type MockErrorName, mockError } from './errors.js';
import { MOCK_ERRORS } from './index.js';
import { errorResponse } from './responses.js';

const contract = defaultContract();

describe('the error table', () => {
  it.each(Object.keys(CORE_ERRORS) as MockErrorName[])('builds a valid Error body for %s', (name) => {
    const body = errorBody(mockError(name, { id: 7n }));
    expect(contract.validateSchema('Error', body).ok).toBe(true);
    expect(body.status).toBe(CORE_ERRORS[name].status);
    expect(body.message).not.toContain('{id}');
  });

  it.each(Object.entries(MOCK_ERRORS))('the package lists %s with a valid Error body', (name, spec) => {
    const body = errorBody({ spec, message: spec.message });
    expect(contract.validateSchema('Error', body).ok, name).toBe(true);
  });

  // Issue 24: an app shows an Error's message as it comes; Markdown would show raw.
  const documented = contract.operations.flatMap((operation) =>
    [...operation.responses.values()].flatMap((response) => [...response.examples.values()]),
  );
  it.each([
    ...Object.entries(MOCK_ERRORS).map(([name, spec]) => ({ name, message: spec.message })),
    ...documented.flatMap((example) => {
      const message = (example as { message?: unknown } | null)?.message;
      return typeof message === 'string' ? [{ name: 'a documented example', message }] : [];
    }),
  ])('says $name in plain text, no Markdown: $message', ({ message }) => {
    expect(message).not.toMatch(/`|\*\*/);
  });

  it("lists the socket's own errors beside the shared ones", () => {
    expect(Object.keys(MOCK_ERRORS)).toEqual(expect.arrayContaining(['unauthorized', 'headersTooLarge']));
  });

  it.each([
    { name: 'a plain error', error: mockError('notFound') },
    { name: 'an id with quotes and a backslash', error: mockError('orderNotFound', { id: 'a"b\\c' }) },
    { name: 'an id with control characters', error: mockError('orderNotFound', { id: 'a\u0000\tb\u001f' }) },
    {
      name: 'an id with non-ASCII and a lone surrogate',
      error: mockError('petNotFound', { id: 'é😀\udc00' }),
    },
    { name: 'an int64 id', error: mockError('orderAlreadyShipped', { id: 9007199254740993n }) },
    { name: 'a clipped id', error: mockError('orderNotFound', { id: '"'.repeat(100) }) },
    {
      name: 'control characters and non-ASCII',
      error: mockError('invalidRequest', { message: 'x\u0001\n\u2028é😀' }),
    },
    { name: 'a lone surrogate', error: mockError('invalidRequest', { message: 'x\ud800y' }) },
    {
      name: 'an id that looks like a replacement pattern',
      error: mockError('orderNotFound', { id: "$&$'$`" }),
    },
    { name: 'an error with headers', error: mockError('unauthorized', { headers: { a: 'b' } }) },
  ])('sends the Error body of $name as JSON.stringify of the Error object', ({ error }) => {
    const sent = errorResponse(error, undefined).body;
    expect(sent).toBe(
      JSON.stringify({ code: error.spec.code, message: error.message, status: error.spec.status }),
    );
    expect(JSON.parse(String(sent))).toEqual(errorBody(error));
  });

  it('has a table entry for each code the document lists as an Error.code example (D4)', () => {
    // The authored YAML: schema examples are prose to the embedded document, which leaves them out.
    const { components } = parse(readFileSync(DOCUMENT_PATH, 'utf8')) as {
      components: { schemas: { Error: { properties: { code: { examples: unknown[] } } } } };
    };
    const documented = components.schemas.Error.properties.code.examples;
    expect(documented.length).toBeGreaterThan(0);
    const codes = new Set<string>(Object.values(MOCK_ERRORS).map((spec) => spec.code));
    for (const code of documented) expect(codes, String(code)).toContain(code);
  });

  it.each([
    { name: 'fills the id into the message', given: { id: 404n }, want: 'No order has id 404.' },
    { name: 'keeps a message given whole', given: { message: 'Custom.' }, want: 'Custom.' },
    {
      name: 'echoes an id as sent, even one that looks like a replacement pattern',
      given: { id: "$&$'" },
      want: "No order has id $&$'.",
    },
    {
      name: 'clips a long echoed id',
      given: { id: 'x'.repeat(500) },
      want: `No order has id ${'x'.repeat(61)}....`,
    },
  ])('$name', ({ given, want }) => {
    expect(mockError('orderNotFound', given).message).toBe(want);
  });

  it('finds the entry for every code the state table names', () => {
    for (const transition of contract.orderStates.transitions) {
      if (transition.status >= 400)
        expect(errorNameFor(transition.code ?? '', transition.status)).toBeDefined();
    }
    expect(errorNameFor('no_such_code', 400)).toBeUndefined();
  });

  it('names the exact entry for a code and status, the first in the table where two share them', () => {
    expect(errorNameFor('order_already_shipped', 409)).toBe('orderAlreadyShipped');
    expect(errorNameFor('order_not_found', 404)).toBe('orderNotFound');
    expect(errorNameFor('order_not_found', 409)).toBeUndefined();
    expect(errorNameFor('not_found', 404)).toBe('petNotFound');
  });

  it('sends the body of every Error example of the document, message included', () => {
    let compared = 0;
    for (const operation of contract.operations) {
      for (const response of operation.responses.values()) {
        for (const example of response.examples.values()) {
          const { code, status, message } = example as { code?: string; status?: number; message?: string };
          if (typeof code !== 'string' || typeof status !== 'number' || typeof message !== 'string') continue;
          const name = errorNameFor(code, status);
          expect(name, `${operation.operationId} ${status} ${code}`).toBeDefined();
          // The examples name an id (404, 2); the mock's message for that id must read the same.
          const id = /\d+/.exec(message)?.[0];
          if (name) expect(errorBody(mockError(name, id === undefined ? {} : { id }))).toEqual(example);
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThanOrEqual(4);
  });
});
