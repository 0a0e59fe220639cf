import { describe, expect, it } from 'vitest';
import type { Int64Location } from '../generated/int64-locations.js';
import { exactInt64Text } from './client.js';

const ORDERS: Int64Location = { items: { properties: { id: true, petId: true } } };

describe('exactInt64Text', () => {
  it.each([
    {
      name: 'turns an id above 2^53 into its exact digits',
      text: '[{"id":9007199254740993}]',
      want: '[{"id":"9007199254740993"}]',
    },
    {
      name: 'turns a small id into a string too, so the type never depends on the size',
      text: '[{"id":1,"petId":10,"quantity":3}]',
      want: '[{"id":"1","petId":"10","quantity":3}]',
    },
    {
      name: 'keeps the int64 extremes exact',
      text: '[{"id":-9223372036854775808,"petId":9223372036854775807}]',
      want: '[{"id":"-9223372036854775808","petId":"9223372036854775807"}]',
    },
    {
      name: 'leaves a non-integer where an int64 belongs as the server sent it',
      text: '[{"id":1.5,"petId":"x"}]',
      want: '[{"id":1.5,"petId":"x"}]',
    },
    { name: 'keeps the values of members it does not know', text: '[{"note":1e3}]', want: '[{"note":1000}]' },
    { name: 'leaves a body of another shape alone', text: '{"id":1}', want: '{"id":1}' },
    { name: 'returns text that is not JSON unchanged', text: 'oops {', want: 'oops {' },
  ])('$name', ({ text, want }) => {
    expect(exactInt64Text(text, ORDERS)).toBe(want);
  });
});
