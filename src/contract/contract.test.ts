import { describe, expect, it } from 'vitest';

import { DOCUMENT } from '../generated/document.js';
import { VALIDATORS } from '../generated/validators.js';
import { assembleContract } from './build.js';
import { buildContract } from './compile.js';
import { defaultContract } from './contract.js';
import { INT64_MAX, INT64_MIN } from './int64.js';
import { type ExactJson, parseExactJson } from './lossless-json.js';
import { parseParameter } from './parameters.js';

const contract = defaultContract();

function exact(text: string): ExactJson {
  const parsed = parseExactJson(text);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.value;
}

/** The same document with its validators compiled by Ajv at run time, as a `--spec` document is. */
const compiled = buildContract(DOCUMENT);

/**
 * The keywords that broke, so a case says which rule it expects to fail. The generated validators of the
 * built-in contract and Ajv's run-time compilation must agree on every case.
 */
function brokenRules(name: 'Order' | 'Error', text: string): string[] {
  const [generated, atRunTime] = [contract, compiled].map((c) => {
    const verdict = c.validateSchema(name, exact(text));
    return verdict.ok ? [] : verdict.error.map((e) => `${e.path} ${e.keyword} ${e.message}`);
  });
  expect(generated, 'the generated validator agrees with a run-time compiled one').toEqual(atRunTime);
  return (generated ?? []).map((rule) => rule.split(' ').slice(0, 2).join(' '));
}

describe('Order (§2, D8)', () => {
  const cases: Array<{ name: string; given: string; want: string[] }> = [
    {
      name: 'accepts a full order',
      given: '{"id":1,"petId":10,"quantity":1,"shipDate":"2026-12-01T10:00:00Z","complete":false}',
      want: [],
    },
    { name: 'accepts an empty order (no field is required)', given: '{}', want: [] },
    { name: 'accepts fields it does not know', given: '{"id":1,"status":"pending"}', want: [] },
    { name: 'accepts an id above 2^53 kept exact', given: '{"id":9007199254740993}', want: [] },
    { name: 'accepts the largest int64', given: `{"id":${INT64_MAX}}`, want: [] },
    { name: 'accepts the smallest int64', given: `{"petId":${INT64_MIN}}`, want: [] },
    { name: 'rejects one past the largest int64', given: `{"id":${INT64_MAX + 1n}}`, want: ['/id format'] },
    {
      name: 'rejects one below the smallest int64',
      given: `{"petId":${INT64_MIN - 1n}}`,
      want: ['/petId format'],
    },
    { name: 'rejects 2^64', given: '{"id":18446744073709551616}', want: ['/id format'] },
    { name: 'rejects a float id', given: '{"id":1.5}', want: ['/id type', '/id format'] },
    { name: 'rejects a float quantity', given: '{"quantity":2.5}', want: ['/quantity type'] },
    { name: 'rejects a string id', given: '{"id":"1"}', want: ['/id type'] },
    { name: 'rejects a numeric shipDate', given: '{"shipDate":20261201}', want: ['/shipDate type'] },
    { name: 'rejects a date without a time', given: '{"shipDate":"2026-12-01"}', want: ['/shipDate format'] },
    {
      name: 'rejects a date-time without a zone',
      given: '{"shipDate":"2026-12-01T10:00:00"}',
      want: ['/shipDate format'],
    },
    { name: 'rejects month 13', given: '{"shipDate":"2026-13-01T10:00:00Z"}', want: ['/shipDate format'] },
    { name: 'rejects a string complete', given: '{"complete":"true"}', want: ['/complete type'] },
    { name: 'rejects an array', given: '[]', want: [' type'] },
    { name: 'rejects null', given: 'null', want: [' type'] },
  ];
  it.each(cases)('$name', ({ given, want }) => {
    expect(brokenRules('Order', given)).toEqual(want);
  });

  it('returns the exact value on success', () => {
    expect(contract.validateSchema('Order', exact('{"id":9007199254740993}'))).toEqual({
      ok: true,
      value: { id: 9007199254740993n },
    });
  });
});

describe('Error (§2, §7, D4, D5)', () => {
  const cases: Array<{ name: string; given: string; want: string[] }> = [
    {
      name: 'accepts an Error',
      given: '{"code":"order_not_found","message":"No order has id 7.","status":404}',
      want: [],
    },
    { name: 'accepts extra fields', given: '{"code":"x","message":"m","status":500,"details":[]}', want: [] },
    { name: 'rejects a missing code', given: '{"message":"m","status":404}', want: [' required'] },
    { name: 'rejects a missing message', given: '{"code":"x","status":404}', want: [' required'] },
    { name: 'rejects a missing status', given: '{"code":"x","message":"m"}', want: [' required'] },
    { name: 'rejects an empty body object', given: '{}', want: [' required', ' required', ' required'] },
    {
      name: 'rejects an empty code (D4)',
      given: '{"code":"","message":"m","status":404}',
      want: ['/code minLength'],
    },
    {
      name: 'rejects a numeric code',
      given: '{"code":404,"message":"m","status":404}',
      want: ['/code type'],
    },
    {
      name: 'rejects a string status',
      given: '{"code":"x","message":"m","status":"404"}',
      want: ['/status type'],
    },
    {
      name: 'rejects a float status',
      given: '{"code":"x","message":"m","status":404.5}',
      want: ['/status type'],
    },
    {
      name: 'rejects a status that is no HTTP status',
      given: '{"code":"x","message":"m","status":99}',
      want: ['/status minimum'],
    },
    {
      name: 'rejects a null message',
      given: '{"code":"x","message":null,"status":404}',
      want: ['/message type'],
    },
    { name: 'rejects a string', given: '"Not found"', want: [' type'] },
  ];
  it.each(cases)('$name', ({ given, want }) => {
    expect(brokenRules('Error', given)).toEqual(want);
  });
});

describe('operations (§4)', () => {
  it('names an unknown operation in its error', () => {
    expect(() => contract.operation('deleteEverything')).toThrow('no operation deleteEverything');
  });

  it('has an example for every documented body, valid against its own schema', () => {
    for (const op of contract.operations) {
      for (const response of op.responses.values()) {
        if (response.mediaType === null) continue;
        expect(response.examples.size, `${op.operationId} ${response.status}`).toBeGreaterThan(0);
        for (const example of response.examples.values()) {
          const verdict = contract.validateResponseBody(
            op.operationId,
            response.status,
            JSON.stringify(example),
          );
          expect(verdict, `${op.operationId} ${response.status}`).toMatchObject({ ok: true });
        }
      }
    }
  });
});

describe('the base path (D12)', () => {
  it.each([
    {
      name: 'the local entry, not the first',
      servers: [{ url: 'https://{base_url}' }, { url: 'http://localhost:4010/v1' }],
      want: '/v1',
    },
    {
      name: 'variables at their defaults, without a trailing slash',
      servers: [
        {
          url: 'http://127.0.0.1:{port}/{version}/',
          variables: { port: { default: '4010' }, version: { default: 'v2' } },
        },
      ],
      want: '/v2',
    },
    {
      name: 'the first entry when none is local',
      servers: [{ url: 'https://api.example.com/base' }],
      want: '/base',
    },
    { name: 'a relative URL', servers: [{ url: '/v3' }], want: '/v3' },
  ])('is read from $name', ({ servers, want }) => {
    expect(assembleContract({ ...DOCUMENT, servers }, VALIDATORS).basePath).toBe(want);
  });
});

describe('validateResponseBody', () => {
  const cases = [
    {
      name: 'accepts a list of orders',
      op: 'listOrders',
      status: 200,
      body: '[{"id":9007199254740993}]',
      ok: true,
    },
    { name: 'accepts an empty list', op: 'listOrders', status: 200, body: '[]', ok: true },
    {
      name: 'rejects an object where a list is due',
      op: 'listOrders',
      status: 200,
      body: '{"orders":[]}',
      ok: false,
    },
    {
      name: 'rejects a list holding an id outside int64',
      op: 'listOrders',
      status: 200,
      body: '[{"id":18446744073709551616}]',
      ok: false,
    },
    {
      name: 'rejects broken items, each named by its index and the Order rule, as Ajv does for the list',
      op: 'listOrders',
      status: 200,
      body: '[{"id":1},{"id":"2","quantity":1.5},3,{"shipDate":"2026-12-01"}]',
      ok: false,
    },
    { name: 'rejects truncated JSON', op: 'listOrders', status: 200, body: '[{"id":1', ok: false },
    { name: 'accepts an empty 204', op: 'cancelOrder', status: 204, body: '', ok: true },
    { name: 'rejects a 204 with a body', op: 'cancelOrder', status: 204, body: '{}', ok: false },
    {
      name: 'accepts a 409 Error',
      op: 'cancelOrder',
      status: 409,
      body: '{"code":"order_already_shipped","message":"m","status":409}',
      ok: true,
    },
    {
      name: 'rejects a 404 that is not an Error',
      op: 'cancelOrder',
      status: 404,
      body: '{"error":"not found"}',
      ok: false,
    },
    {
      name: 'rejects a 401 whose status is out of range, naming the Error schema it breaks',
      op: 'getPet',
      status: 401,
      body: '{"code":"unauthorized","message":"m","status":99}',
      ok: false,
    },
    { name: 'rejects a pet that is not an object', op: 'getPet', status: 200, body: '[1]', ok: false },
    { name: 'rejects an undocumented status', op: 'listOrders', status: 418, body: '', ok: false },
  ];
  it.each(cases)('$name', ({ op, status, body, ok }) => {
    expect(contract.validateResponseBody(op, status, body).ok).toBe(ok);
    expect(compiled.validateResponseBody(op, status, body)).toEqual(
      contract.validateResponseBody(op, status, body),
    );
  });

  it('names the component schema a referenced body breaks, as Ajv does when it copies the component in', () => {
    const verdict = contract.validateResponseBody(
      'cancelOrder',
      404,
      '{"code":"","message":"m","status":404}',
    );
    expect(!verdict.ok && verdict.error.map((e) => e.schemaPath)).toEqual([
      'https://petstore.contract/components/schemas/Error/properties/code/minLength',
    ]);
  });

  it('names each broken item of a list by its index, and the Order rule it breaks', () => {
    const verdict = contract.validateResponseBody('listOrders', 200, '[{"id":1},{"id":"2"},null]');
    expect(!verdict.ok && verdict.error.map((e) => `${e.path} ${e.schemaPath}`)).toEqual([
      '/1/id https://petstore.contract/components/schemas/Order/properties/id/type',
      '/2 https://petstore.contract/components/schemas/Order/type',
    ]);
  });

  it('says which rule broke', () => {
    expect(contract.validateResponseBody('listOrders', 418, '')).toEqual({
      ok: false,
      error: [
        {
          path: '',
          keyword: 'status',
          schemaPath: '',
          message: 'status 418 is not documented for listOrders',
        },
      ],
    });
  });
});

describe('parseParameter (§4.2, D8, D9)', () => {
  const orderId = contract.operation('cancelOrder').parameters[0];
  if (!orderId) throw new Error('cancelOrder has no orderId parameter');
  const cases = [
    { given: '1', want: 1n },
    { given: '9007199254740993', want: 9007199254740993n },
    { given: '9223372036854775807', want: INT64_MAX },
    { given: '-9223372036854775808', want: INT64_MIN },
    { given: '0', want: 0n },
  ];
  it.each(cases)('reads $given exactly', ({ given, want }) => {
    expect(parseParameter(orderId, given)).toEqual({ ok: true, value: want });
  });

  it.each([
    'abc',
    '1.5',
    '1e3',
    '',
    ' 1',
    '+1',
    '01',
    '-0',
    '-01',
    '00',
    '1 ',
    '0x10',
    '9223372036854775808',
    '-9223372036854775809',
    '18446744073709551616',
  ])('rejects %j', (given) => {
    expect(parseParameter(orderId, given).ok).toBe(false);
  });
});
