import { describe, expect, it } from 'vitest';
import { defaultFixturesJson } from './default-fixtures.js';

describe('defaultFixturesJson: fixtures/default.yaml as data', () => {
  it.each([
    {
      name: 'writes order ids and pet ids as exact decimal strings',
      given:
        'orders: [{ id: 9007199254740993, petId: 9223372036854775807, status: pending }]\npets: [{ id: 1 }]',
      want: {
        orders: [{ id: '9007199254740993', petId: '9223372036854775807', status: 'pending' }],
        pets: [{ id: '1' }],
      },
    },
    {
      name: 'keeps a quantity a number, and dates strings',
      given: 'orders: [{ id: 1, quantity: 4, shipDate: 2026-12-01T10:00:00Z, status: shipped }]',
      want: { orders: [{ id: '1', quantity: 4, shipDate: '2026-12-01T10:00:00Z', status: 'shipped' }] },
    },
  ])('$name', ({ given, want }) => {
    expect(JSON.parse(defaultFixturesJson(given))).toEqual(want);
  });

  it.each([
    {
      name: 'a quantity beyond 2^53, which no number holds',
      given: 'orders: [{ id: 1, quantity: 9007199254740993, status: pending }]',
      want: 'fixtures/default.yaml: quantity is 9007199254740993, beyond 2^53, and not an id',
    },
    { name: 'a list at the top', given: '- 1', want: 'fixtures/default.yaml must hold a mapping' },
  ])('refuses $name', ({ given, want }) => {
    expect(() => defaultFixturesJson(given)).toThrow(want);
  });
});
