import { describe, expect, it } from 'vitest';
import { defaultContract, parseExactJson } from '../contract/index.js';
import { readFaultSettings } from './faults.js';
import { compilePrefer, parsePrefer } from './prefer.js';

const contract = defaultContract();

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

/** The body as a plain object, for comparisons. */
function bodyOf(text: string | undefined): unknown {
  const parsed = parseExactJson(text ?? '');
  return parsed.ok ? parsed.value : undefined;
}

describe('forced responses', () => {
  const forcer = compilePrefer(contract.operations, readFaultSettings(contract.document));
  const cases = contract.operations.flatMap((operation) =>
    operation.statuses.map((status) => ({ operationId: operation.operationId, status })),
  );
  it.each(cases)(
    'forces $operationId $status with a body the document accepts',
    ({ operationId, status }) => {
      const outcome = forcer.prefer(
        contract.operation(operationId),
        { code: String(status), example: undefined },
        { orderId: '7', petId: '10' },
      );
      expect(outcome.ok).toBe(true);
      if (!outcome.ok) return;
      expect(outcome.value.status).toBe(status);
      expect(outcome.value.headers['preference-applied']).toBe(`code=${status}`);
      const verdict = contract.validateResponseBody(operationId, status, outcome.value.body ?? '');
      expect(verdict.ok).toBe(true);
    },
  );

  it.each([
    {
      name: 'names the order asked for in a forced 409',
      operationId: 'cancelOrder',
      code: '409',
      param: 'orderId',
      id: '9007199254740993',
      want: {
        code: 'order_already_shipped',
        message: 'Order 9007199254740993 has already shipped and cannot be cancelled.',
        status: 409,
      },
    },
    {
      name: 'names the order asked for in a forced 404',
      operationId: 'cancelOrder',
      code: '404',
      param: 'orderId',
      id: '77',
      want: { code: 'order_not_found', message: 'No order has id 77.', status: 404 },
    },
    {
      name: 'names the pet asked for in a forced 404',
      operationId: 'getPet',
      code: '404',
      param: 'petId',
      id: '12',
      want: { code: 'not_found', message: 'No pet has id 12.', status: 404 },
    },
  ])('$name', ({ operationId, code, param, id, want }) => {
    const outcome = forcer.prefer(
      contract.operation(operationId),
      { code, example: undefined },
      { [param]: id },
    );
    expect(outcome.ok && bodyOf(outcome.value.body)).toEqual(want);
  });

  it('sends a named example as the document writes it', () => {
    const outcome = forcer.prefer(
      contract.operation('cancelOrder'),
      { code: '409', example: 'orderAlreadyShipped' },
      { orderId: '7' },
    );
    expect(outcome.ok && outcome.value.headers['preference-applied']).toBe(
      'code=409; example=orderAlreadyShipped',
    );
    const example = contract.operation('cancelOrder').responses.get(409)?.examples.get('orderAlreadyShipped');
    expect(outcome.ok && bodyOf(outcome.value.body)).toEqual(example);
  });

  it.each([
    { operationId: 'listOrders', code: '500' },
    { operationId: 'cancelOrder', code: '503' },
    { operationId: 'getPet', code: '599' },
  ])('answers $operationId with a simulated $code fault (D18)', ({ operationId, code }) => {
    const outcome = forcer.prefer(contract.operation(operationId), { code, example: undefined }, {});
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.value.status).toBe(Number(code));
    expect(outcome.value.headers).toEqual({ 'preference-applied': `code=${code}`, 'x-mock-fault': 'prefer' });
    expect(bodyOf(outcome.value.body)).toEqual({
      code: 'simulated_fault',
      message: `Simulated fault: the mock answered ${code} on purpose.`,
      status: Number(code),
    });
  });

  it.each([
    {
      name: 'an undocumented 4xx',
      code: '418',
      example: undefined,
      want: /code=418 is not a documented response of cancelOrder; use one of 204, 401, 404, 409, or 500–599 for a simulated fault/,
    },
    { name: 'a status beyond 5xx', code: '600', example: undefined, want: /code=600 is not a documented/ },
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
    const outcome = forcer.prefer(contract.operation('cancelOrder'), { code, example }, { orderId: '1' });
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) {
      expect(outcome.error.spec.status).toBe(400);
      expect(outcome.error.message).toMatch(want);
    }
  });

  it('picks a named example', () => {
    const outcome = forcer.prefer(contract.operation('getPet'), { code: '200', example: 'pet' }, {});
    expect(outcome.ok && outcome.value.headers['preference-applied']).toBe('code=200; example=pet');
  });

  it('reads the simulated range and code from the document', () => {
    const extension = contract.document['x-petstore-faults'] as Record<string, unknown>;
    const settings = readFaultSettings({
      ...contract.document,
      'x-petstore-faults': { ...extension, code: 'chaos', preferStatus: { minimum: 503, maximum: 503 } },
    });
    const altered = compilePrefer(contract.operations, settings);
    const listOrders = contract.operation('listOrders');
    const outcome = altered.prefer(listOrders, { code: '503', example: undefined }, {});
    expect(outcome.ok && bodyOf(outcome.value.body)).toMatchObject({ code: 'chaos', status: 503 });
    expect(altered.prefer(listOrders, { code: '500', example: undefined }, {}).ok).toBe(false);
  });
});

describe('the status of a fault rule', () => {
  const forcer = compilePrefer(contract.operations, readFaultSettings(contract.document));
  it.each([
    {
      name: 'sends the documented Error naming the id for a documented status',
      operationId: 'cancelOrder',
      status: 409,
      want: { code: 'order_already_shipped', status: 409 },
      message: 'Order 5 has already shipped and cannot be cancelled.',
    },
    {
      name: 'marks an undocumented status as simulated, without naming the control path',
      operationId: 'cancelOrder',
      status: 429,
      want: { code: 'simulated_fault', status: 429 },
      message: 'Simulated fault: the mock answered 429 on purpose.',
    },
    {
      name: "says the fault's message with an undocumented status",
      operationId: 'listOrders',
      status: 503,
      given: 'The store is closed for maintenance.',
      want: { code: 'simulated_fault', status: 503 },
      message: 'The store is closed for maintenance.',
    },
    {
      name: "says the fault's message with a documented Error, its code kept",
      operationId: 'cancelOrder',
      status: 409,
      given: 'This order is on its way.',
      want: { code: 'order_already_shipped', status: 409 },
      message: 'This order is on its way.',
    },
    {
      name: "says the fault's message with the documented 401",
      operationId: 'listOrders',
      status: 401,
      given: 'Your session has expired.',
      want: { code: 'unauthorized', status: 401 },
      message: 'Your session has expired.',
    },
  ])('$name', ({ operationId, status, given, want, message }) => {
    const forced = forcer.status(contract.operation(operationId), status, { orderId: '5' }, given);
    expect(forced.status).toBe(status);
    expect(forced.headers).toEqual({ 'x-mock-fault': 'control' });
    expect(bodyOf(forced.body)).toEqual({ ...want, message });
  });
});
