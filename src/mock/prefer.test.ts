import { describe, expect, it } from 'vitest';
import { contract } from '../contract/index.js';
import { compilePrefer, parsePrefer } from './prefer.js';

const decode = (bytes: Uint8Array | undefined): string => new TextDecoder().decode(bytes);

describe('parsePrefer', () => {
  it.each([
    { given: 'code=409', want: { code: '409', example: undefined } },
    { given: 'CODE = "404"', want: { code: '404', example: undefined } },
    { given: 'respond-async, code=401', want: { code: '401', example: undefined } },
    { given: 'code=200; example=pet', want: { code: '200', example: 'pet' } },
    { given: 'example=pet', want: undefined },
    { given: 'return=minimal', want: undefined },
    { given: undefined, want: undefined },
    { given: 'code=abc', want: { code: 'abc', example: undefined } },
  ])('reads "$given"', ({ given, want }) => {
    expect(parsePrefer(given)).toEqual(want);
  });
});

describe('forced responses', () => {
  const force = compilePrefer();
  const cases = contract.operations.flatMap((operation) =>
    operation.statuses.map((status) => ({ operationId: operation.operationId, status })),
  );
  it.each(cases)(
    'forces $operationId $status with a body the document accepts',
    ({ operationId, status }) => {
      const outcome = force(contract.operation(operationId), { code: String(status), example: undefined });
      expect(outcome.ok).toBe(true);
      if (!outcome.ok) return;
      expect(outcome.value.status).toBe(status);
      expect(outcome.value.applied).toBe(`code=${status}`);
      const verdict = contract.validateResponseBody(operationId, status, decode(outcome.value.body));
      expect(verdict.ok).toBe(true);
    },
  );

  it.each([
    {
      name: 'an undocumented code',
      code: '418',
      example: undefined,
      want: /code=418 is not a documented response of cancelOrder; use one of 204, 401, 404, 409/,
    },
    {
      name: 'a code that is not a number',
      code: 'abc',
      example: undefined,
      want: /code=abc is not a documented/,
    },
    {
      name: 'an unknown example',
      code: '409',
      example: 'nope',
      want: /example=nope is not an example of cancelOrder 409; use one of orderAlreadyShipped/,
    },
  ])('refuses $name with a 400 Error', ({ code, example, want }) => {
    const outcome = force(contract.operation('cancelOrder'), { code, example });
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) {
      expect(outcome.error.spec.status).toBe(400);
      expect(outcome.error.message).toMatch(want);
    }
  });

  it('picks a named example', () => {
    const outcome = force(contract.operation('getPet'), { code: '200', example: 'pet' });
    expect(outcome.ok && outcome.value.applied).toBe('code=200; example=pet');
  });
});
