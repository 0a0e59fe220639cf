import { isSafeNumber, parse as parseLosslessJson } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import { parseExactJson, stringifyExactJson } from './lossless-json.js';

/** lossless-json, which the toolkit used before, read with the same rule for numbers: the reference. */
function reference(text: string): { ok: boolean; value?: unknown } {
  const exactNumber = (literal: string) => {
    if (/^-?(0|[1-9][0-9]*)$/.test(literal)) {
      return Number.isSafeInteger(Number(literal)) ? Number(literal) : BigInt(literal);
    }
    return isSafeNumber(literal, { approx: true }) ? Number(literal) : Number.parseFloat(literal);
  };
  try {
    return { ok: true, value: parseLosslessJson(text, null, exactNumber) };
  } catch {
    return { ok: false };
  }
}

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

  it.each([
    '{"a":1,"b":[true,false,null],"c":{"d":"e"}}',
    ' \t\n\r[ 1 , 2 ]\n',
    '"caf\\u00e9 \\n \\" \\\\ \\/ \\ud83d\\ude00"',
    '"plain é 😀"',
    '[-0, 0.5, -1.25e-3, 1E+2, 12345678901234567890.5]',
    '[-9007199254740993, 9007199254740991]',
    '{"a":1,"a":1}',
    '{"__proto__":{"polluted":true}}',
    '{}',
    '[]',
    '{"a":1,"a":2}',
    '{"a":1,}',
    '[1 2]',
    '01',
    '1.',
    '.5',
    '+1',
    '"\u0001"',
    '"\\x"',
    "{'a':1}",
    'tru',
    '{"a" 1}',
    '[',
    '"open',
  ])('agrees with lossless-json on %j', (text) => {
    const want = reference(text);
    const got = parseExactJson(text);
    expect(got.ok).toBe(want.ok);
    if (got.ok) expect(got.value).toEqual(want.value);
  });

  it('adds a __proto__ member as data, leaving the prototype alone', () => {
    const parsed = parseExactJson('{"__proto__":{"polluted":true}}');
    const value = parsed.ok ? (parsed.value as Record<string, unknown>) : {};
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('names what it expected and where', () => {
    expect(parseExactJson('{"a":1,"a":2}')).toEqual({
      ok: false,
      error: "A key given once, not 'a' again, but got '\"' at position 7",
    });
    expect(parseExactJson('[1,]')).toEqual({ ok: false, error: "A JSON value but got ']' at position 3" });
  });

  it('refuses a nesting deeper than the stack with a message, not a crash', () => {
    const parsed = parseExactJson('['.repeat(200_000));
    expect(parsed.ok).toBe(false);
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

  it('writes what JSON.stringify writes for values without a bigint', () => {
    const value = {
      a: [1, 'x', null, true, undefined, () => 1],
      b: undefined,
      c: Number.NaN,
      d: new Date(0),
      e: 'é\n"',
    };
    expect(stringifyExactJson(value)).toBe(JSON.stringify(value));
    expect(stringifyExactJson(undefined)).toBe('null');
  });

  it('round-trips through parseExactJson unchanged', () => {
    const text = '[{"id":9223372036854775807,"shipDate":"2026-12-01T10:00:00Z","complete":false}]';
    const parsed = parseExactJson(text);
    expect(parsed.ok && stringifyExactJson(parsed.value)).toBe(text);
  });
});
