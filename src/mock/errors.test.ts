import { describe, expect, it } from 'vitest';
import { contract } from '../contract/index.js';
import { errorBody, errorNameFor, MOCK_ERRORS, type MockErrorName, mockError } from './errors.js';

describe('the error table', () => {
  it.each(Object.keys(MOCK_ERRORS) as MockErrorName[])('builds a valid Error body for %s', (name) => {
    const body = errorBody(mockError(name, { id: 7n }));
    expect(contract.validateSchema('Error', body).ok).toBe(true);
    expect(body.status).toBe(MOCK_ERRORS[name].status);
    expect(body.message).not.toContain('{id}');
  });

  it('uses the codes of D4 for the documented conditions', () => {
    expect(MOCK_ERRORS.unauthorized.code).toBe('unauthorized');
    expect(MOCK_ERRORS.orderNotFound.code).toBe('order_not_found');
    expect(MOCK_ERRORS.orderAlreadyShipped.code).toBe('order_already_shipped');
    expect(MOCK_ERRORS.notFound.code).toBe('not_found');
    expect(MOCK_ERRORS.methodNotAllowed.code).toBe('method_not_allowed');
  });

  it.each([
    { name: 'fills the id into the message', given: { id: 404n }, want: 'No order has id 404.' },
    { name: 'keeps a message given whole', given: { message: 'Custom.' }, want: 'Custom.' },
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

  it('answers unknown routes as the document says (x-petstore-unknown-routes, D10)', () => {
    const routes = contract.document['x-petstore-unknown-routes'] as Record<
      string,
      { status: number; code: string }
    >;
    expect(routes.unknownPath).toMatchObject({
      status: MOCK_ERRORS.notFound.status,
      code: MOCK_ERRORS.notFound.code,
    });
    expect(routes.unsupportedMethod).toMatchObject({
      status: MOCK_ERRORS.methodNotAllowed.status,
      code: MOCK_ERRORS.methodNotAllowed.code,
    });
  });

  it('has an entry for every Error example of the document, with the same status', () => {
    for (const operation of contract.operations) {
      for (const response of operation.responses.values()) {
        for (const example of response.examples.values()) {
          const { code, status } = example as { code?: string; status?: number };
          if (typeof code !== 'string' || typeof status !== 'number') continue;
          expect(errorNameFor(code, status), `${operation.operationId} ${status} ${code}`).toBeDefined();
        }
      }
    }
  });
});
