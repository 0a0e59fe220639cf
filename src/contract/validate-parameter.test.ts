/**
 * Declared parameters are checked against their schemas (D21): the text of a path, query or header value
 * is read as its schema's type, then validated. Proven on a copy of the document that declares a `limit`
 * (1–100) on listOrders, compiled at run time as a `--spec` document would be, and on the built-in contract,
 * whose validators are generated at build time.
 */
import { describe, expect, it } from 'vitest';
import { DOCUMENT } from '../generated/document.js';
import { buildContract } from './compile.js';
import { defaultContract } from './contract.js';
import { INT64_MAX } from './int64.js';
import type { RawParameter } from './parameters.js';

const contract = defaultContract();

/** The document with parameters added to listOrders, as a newer draft of the contract might have them. */
function withListParameters() {
  const document = structuredClone(DOCUMENT) as {
    paths: { '/store/orders': { get: { parameters?: unknown[] } } };
  };
  document.paths['/store/orders'].get.parameters = [
    { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100 } },
    { name: 'complete', in: 'query', schema: { type: 'boolean' } },
    {
      name: 'petIds',
      in: 'query',
      schema: { type: 'array', items: { type: 'integer', format: 'int64' }, maxItems: 3 },
    },
    { name: 'X-Page-Token', in: 'header', required: true, schema: { type: 'string', pattern: '^[a-z]+$' } },
  ];
  return buildContract(document);
}

describe('validateParameter on a document that declares more (D21)', () => {
  const modified = withListParameters();
  const cases: Array<{
    name: string;
    given: [location: 'query' | 'header', name: string, raw: RawParameter | undefined];
    want: { ok: true; value: unknown } | { ok: false; keywords: string[] };
  }> = [
    { name: 'accepts limit 5', given: ['query', 'limit', '5'], want: { ok: true, value: 5 } },
    {
      name: 'accepts limit 100, the maximum',
      given: ['query', 'limit', '100'],
      want: { ok: true, value: 100 },
    },
    { name: 'refuses limit abc', given: ['query', 'limit', 'abc'], want: { ok: false, keywords: ['type'] } },
    {
      name: 'refuses limit 0, below the minimum',
      given: ['query', 'limit', '0'],
      want: { ok: false, keywords: ['minimum'] },
    },
    {
      name: 'refuses limit 101, above the maximum',
      given: ['query', 'limit', '101'],
      want: { ok: false, keywords: ['maximum'] },
    },
    { name: 'refuses limit 1.5', given: ['query', 'limit', '1.5'], want: { ok: false, keywords: ['type'] } },
    {
      name: 'refuses limit 05 (one integer grammar, D8)',
      given: ['query', 'limit', '05'],
      want: { ok: false, keywords: ['type'] },
    },
    {
      name: 'refuses limit given twice',
      given: ['query', 'limit', ['5', '6']],
      want: { ok: false, keywords: ['type'] },
    },
    {
      name: 'accepts an absent optional limit',
      given: ['query', 'limit', undefined],
      want: { ok: true, value: undefined },
    },
    {
      name: 'reads complete=true as a boolean',
      given: ['query', 'complete', 'true'],
      want: { ok: true, value: true },
    },
    {
      name: 'refuses complete=yes',
      given: ['query', 'complete', 'yes'],
      want: { ok: false, keywords: ['type'] },
    },
    {
      name: 'reads each value of a repeated query array, int64 exactly',
      given: ['query', 'petIds', ['1', '9007199254740993']],
      want: { ok: true, value: [1n, 9007199254740993n] },
    },
    {
      name: 'refuses an array item outside int64',
      given: ['query', 'petIds', ['1', String(INT64_MAX + 1n)]],
      want: { ok: false, keywords: ['type'] },
    },
    {
      name: 'refuses an array longer than maxItems',
      given: ['query', 'petIds', ['1', '2', '3', '4']],
      want: { ok: false, keywords: ['maxItems'] },
    },
    {
      name: 'matches a header name case-insensitively',
      given: ['header', 'x-page-token', 'abc'],
      want: { ok: true, value: 'abc' },
    },
    {
      name: 'refuses a header breaking its pattern',
      given: ['header', 'X-Page-Token', 'ABC'],
      want: { ok: false, keywords: ['pattern'] },
    },
    {
      name: 'refuses an absent required header',
      given: ['header', 'X-Page-Token', undefined],
      want: { ok: false, keywords: ['required'] },
    },
  ];
  it.each(cases)('$name', ({ given, want }) => {
    const verdict = modified.validateParameter('listOrders', ...given);
    if (want.ok) expect(verdict).toEqual(want);
    else expect(verdict.ok ? [] : verdict.error.map((v) => v.keyword)).toEqual(want.keywords);
  });

  it('says why a limit is no integer, in the words of the int64 grammar', () => {
    expect(modified.validateParameter('listOrders', 'query', 'limit', 'abc')).toEqual({
      ok: false,
      error: [
        {
          path: '/limit',
          keyword: 'type',
          schemaPath: '',
          message: 'must be an integer written in plain decimal (no sign on 0, no leading zeros), got "abc"',
        },
      ],
    });
  });

  it('throws for a parameter the operation does not declare (a bug in the caller)', () => {
    expect(() => modified.validateParameter('listOrders', 'query', 'offset', '1')).toThrow(
      'listOrders declares no query parameter offset',
    );
  });

  it('leaves the built-in contract as it was: listOrders declares no parameter', () => {
    expect(contract.operation('listOrders').parameters).toEqual([]);
    expect(() => contract.validateParameter('listOrders', 'query', 'limit', '5')).toThrow();
  });
});

describe('validateParameter on the built-in contract, with generated validators (D8, D9, D21)', () => {
  const cases: Array<{ name: string; given: string; want: boolean }> = [
    { name: 'accepts order 1', given: '1', want: true },
    { name: 'accepts an id above 2^53', given: '9007199254740993', want: true },
    { name: 'accepts the largest int64', given: String(INT64_MAX), want: true },
    { name: 'refuses one past the largest int64', given: String(INT64_MAX + 1n), want: false },
    { name: 'refuses abc', given: 'abc', want: false },
    { name: 'refuses 1.5', given: '1.5', want: false },
    { name: 'refuses -0', given: '-0', want: false },
  ];
  it.each(cases)('$name', ({ given, want }) => {
    expect(contract.validateParameter('cancelOrder', 'path', 'orderId', given).ok).toBe(want);
  });

  it('hands back the exact id', () => {
    expect(contract.validateParameter('cancelOrder', 'path', 'orderId', '9007199254740993')).toEqual({
      ok: true,
      value: 9007199254740993n,
    });
  });
});
