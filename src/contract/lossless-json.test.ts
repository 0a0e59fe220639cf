import { describe, expect, it } from 'vitest';
import { parseExactJson, stringifyExactJson } from './lossless-json.js';

describe('parseExactJson', () => {
  const cases = [
    { name: 'keeps a safe integer a number', given: '{"id":42}', want: { id: 42 } },
    {
      name: 'keeps 2^53 + 1 exact as a bigint',
      given: '{"id":9007199254740993}',
      want: { id: 9007199254740993n },
    },
    { name: 'keeps the largest int64 exact', given: '[9223372036854775807]', want: [9223372036854775807n] },
    {
      name: 'keeps the smallest int64 exact',
      given: '[-9223372036854775808]',
      want: [-9223372036854775808n],
    },
    {
      name: 'keeps 2^64 exact so that it can be judged',
      given: '[18446744073709551616]',
      want: [18446744073709551616n],
    },
    { name: 'reads a fraction as a number', given: '[1.5]', want: [1.5] },
    { name: 'reads an exponent as a number', given: '[1e3]', want: [1000] },
    {
      name: 'keeps strings, booleans and null',
      given: '["9007199254740993",true,null]',
      want: ['9007199254740993', true, null],
    },
  ];
  it.each(cases)('$name', ({ given, want }) => {
    expect(parseExactJson(given)).toEqual({ ok: true, value: want });
  });

  it.each(['', '{', '[1,]', '{"id":1}x', 'NaN'])('reports %j as not JSON', (text) => {
    const result = parseExactJson(text);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).not.toBe('');
  });
});

describe('stringifyExactJson', () => {
  it('writes bigints as exact integer literals', () => {
    expect(stringifyExactJson({ id: 9007199254740993n, petId: 10, ids: [-9223372036854775808n] })).toBe(
      '{"id":9007199254740993,"petId":10,"ids":[-9223372036854775808]}',
    );
  });

  it('round-trips through parseExactJson unchanged', () => {
    const text = '[{"id":9223372036854775807,"shipDate":"2026-12-01T10:00:00Z","complete":false}]';
    const parsed = parseExactJson(text);
    expect(parsed.ok && stringifyExactJson(parsed.value)).toBe(text);
  });
});
