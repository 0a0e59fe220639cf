import { describe, expect, it } from 'vitest';
import type { ExactJson } from './lossless-json.js';
import { validationView } from './validators.js';

describe('validationView', () => {
  it('turns each bigint into a double that keeps its int64 verdict, leaving the exact value alone', () => {
    const value = { orders: [{ id: 1 }, { id: 2n ** 63n }, { id: 2n ** 63n - 1n }], keys: ['k'] };
    expect(validationView(value)).toEqual({
      orders: [{ id: 1 }, { id: 2 ** 64 }, { id: 2 ** 63 - 1024 }],
      keys: ['k'],
    });
    expect(value.orders[1]).toEqual({ id: 2n ** 63n });
  });

  it('keeps a key named __proto__ as a property', () => {
    const value = JSON.parse('{"__proto__": {"a": 1}, "id": 0}') as Record<string, ExactJson>;
    value.id = 2n ** 63n - 1n;
    const view = validationView(value) as Record<string, unknown>;
    expect(Object.keys(view)).toEqual(['__proto__', 'id']);
    expect(Object.getPrototypeOf(view)).toBe(Object.prototype);
  });
});
