import { describe, expect, it } from 'vitest';
import { KeyIndex, querySecrets, secretOf } from './key-index.js';

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

describe('the keys held for redacting other requests (issue 25)', () => {
  it('never lets refused keys push out one the upstream accepted', () => {
    const keys = new KeyIndex();
    keys.hold('accepted-key-0123456789', true);
    for (let i = 0; i < 100; i++) keys.hold(`refused-key-${String(i).padStart(10, '0')}`, false);
    expect(keys.secrets()).toContain('accepted-key-0123456789');
    expect(keys.secrets()).toHaveLength(33);
  });

  it.each([
    ['api_key, URL-encoded', '/v1/store/orders?api_key=abc%2Fdef&x=1', ['abc/def']],
    ['access_token and token, any case', '/v1?ACCESS_TOKEN=a+b;token=t==#k=1', ['a b', 't==']],
    ['none of them', '/v1/store/orders?keys=1&monkey=2&key=', []],
  ])('reads the credential-like query values of %s', (_label, target, want) => {
    expect(querySecrets(target)).toEqual(want);
  });
});
