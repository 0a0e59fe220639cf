import { describe, expect, it } from 'vitest';
import { defaultContract } from './contract.js';

const contract = defaultContract();

describe('validateParameter reads the text as its schema says, then checks it', () => {
  it.each([
    {
      name: 'keeps an int64 above 2^53 exact',
      raw: '9007199254740993',
      want: { ok: true, value: 9007199254740993n },
    },
    {
      name: 'keeps the largest int64 exact',
      raw: '9223372036854775807',
      want: { ok: true, value: 2n ** 63n - 1n },
    },
    { name: 'refuses one past the largest int64', raw: '9223372036854775808', want: { ok: false } },
    { name: 'refuses a fraction', raw: '1.5', want: { ok: false } },
    { name: 'refuses a leading zero', raw: '042', want: { ok: false } },
  ])('$name', ({ raw, want }) => {
    expect(contract.validateParameter('cancelOrder', 'path', 'orderId', raw)).toMatchObject(want);
  });

  it('refuses an absent required parameter, naming it', () => {
    expect(contract.validateParameter('cancelOrder', 'path', 'orderId', undefined)).toMatchObject({
      ok: false,
      error: [{ path: '/orderId', keyword: 'required', message: 'is required' }],
    });
  });

  it('throws for a parameter the operation does not declare: asking is a bug', () => {
    expect(() => contract.validateParameter('listOrders', 'query', 'limit', '5')).toThrow(
      /declares no query/,
    );
  });
});
