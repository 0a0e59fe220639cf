import { describe, expect, it } from 'vitest';
import { validationView } from './int64-view.js';
import type { ExactJson } from './lossless-json.js';

describe('validationView', () => {
  it('gives back a value without bigints as it is, not a copy', () => {
    const value: ExactJson = { orders: [{ id: 1, shipDate: '2026-12-01T10:00:00Z' }], apiKeys: ['k'] };
    expect(validationView(value)).toBe(value);
  });

  it('copies only the path to a bigint, keeping the rest shared', () => {
    const untouched = { id: 1 };
    const value = { orders: [untouched, { id: 2n ** 63n }], keys: ['k'] };
    const view = validationView(value) as typeof value;
    expect(view).not.toBe(value);
    expect(view.orders[0]).toBe(untouched);
    expect(view.keys).toBe(value.keys);
    expect(view.orders[1]).toEqual({ id: 2 ** 64 });
    expect(value.orders[1]).toEqual({ id: 2n ** 63n });
  });

  it('keeps a key named __proto__ as a property when it copies', () => {
    const value = JSON.parse('{"__proto__": {"a": 1}, "id": 0}') as Record<string, ExactJson>;
    value.id = 2n ** 63n - 1n;
    const view = validationView(value) as Record<string, unknown>;
    expect(Object.keys(view)).toEqual(['__proto__', 'id']);
    expect(Object.getPrototypeOf(view)).toBe(Object.prototype);
  });
});
