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
});
