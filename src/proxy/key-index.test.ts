import { describe, expect, it } from 'vitest';
import { KeyIndex, secretOf } from './key-index.js';

describe('telling keys apart without keeping them', () => {
  it.each([
    ['a bearer token', 'Bearer abc', 'abc'],
    ['a lower-case scheme with extra spaces', 'bearer   abc  ', 'abc'],
    ['another scheme', 'Basic dXNlcjpwYXNz', 'dXNlcjpwYXNz'],
    ['a bare key', 'abc', 'abc'],
    ['an empty bearer token (trimmed by the client)', 'Bearer ', ''],
    ['the scheme alone', 'Bearer', ''],
    ['no header', undefined, ''],
  ])('reads the secret of %s', (_name, header, want) => {
    expect(secretOf(header)).toBe(want);
  });

  it('numbers keys in order of first use and never shows them', () => {
    const keys = new KeyIndex();
    expect([keys.label('k-one'), keys.label('k-two'), keys.label('k-one'), keys.label('')]).toEqual([
      'key #1',
      'key #2',
      'key #1',
      'no key',
    ]);
  });
});
