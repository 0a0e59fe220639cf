import { describe, expect, it } from 'vitest';
import { BEARER_TOKEN_PATTERN } from '../contract/index.js';
import { FIXTURES_SCHEMA } from '../generated/fixtures-schema.js';
import { apiKeyProblem, createAuthenticator, MAX_API_KEY_LENGTH } from './auth.js';

describe('bearer authentication (§5, D7)', () => {
  const authenticate = createAuthenticator(['petstore-dev-key', 'second-key']);
  it.each([
    { name: 'accepts the documented form', given: 'Bearer petstore-dev-key', want: true },
    { name: 'accepts any of several keys', given: 'Bearer second-key', want: true },
    { name: 'accepts a lower-case scheme name', given: 'bearer petstore-dev-key', want: true },
    { name: 'accepts an upper-case scheme name', given: 'BEARER petstore-dev-key', want: true },
    { name: 'refuses a missing header', given: undefined, want: false },
    { name: 'refuses a wrong key', given: 'Bearer wrong-key', want: false },
    { name: 'refuses a prefix of a key', given: 'Bearer petstore-dev', want: false },
    { name: 'refuses a key with more after it', given: 'Bearer petstore-dev-key2', want: false },
    { name: 'refuses the Basic scheme', given: 'Basic petstore-dev-key', want: false },
    { name: 'refuses the Token scheme', given: 'Token petstore-dev-key', want: false },
    { name: 'refuses an empty token', given: 'Bearer ', want: false },
    { name: 'refuses the scheme alone', given: 'Bearer', want: false },
    { name: 'refuses a bare key', given: 'petstore-dev-key', want: false },
    { name: 'refuses an empty header', given: '', want: false },
    { name: 'refuses two tokens', given: 'Bearer petstore-dev-key petstore-dev-key', want: false },
  ])('$name', ({ given, want }) => {
    const outcome = authenticate(given);
    expect(outcome.ok).toBe(want);
    if (!outcome.ok) {
      expect(outcome.error.spec.status).toBe(401);
      expect(outcome.error.headers?.['www-authenticate']).toMatch(/^Bearer/);
    }
  });

  it.each([
    { key: 'petstore-dev-key', want: true },
    { key: 'abc+/=', want: true },
    { key: 'a=b', want: false },
    { key: 'abc+/==', want: true },
    { key: 'has space', want: false },
    { key: '', want: false },
  ])('judges "$key" sendable as a token: $want', ({ key, want }) => {
    expect(apiKeyProblem(key, 'key') === undefined).toBe(want);
  });

  it.each([
    { name: 'refuses a key one character longer than a known one', keys: ['abc'], given: 'Bearer abcd' },
    { name: 'refuses a key one character shorter than a known one', keys: ['abcd'], given: 'Bearer abc' },
    { name: 'refuses a token padded with a trailing =', keys: ['abc'], given: 'Bearer abc=' },
    { name: 'refuses a token past the longest key', keys: ['a'], given: `Bearer ${'a'.repeat(600)}` },
  ])('$name', ({ keys, given }) => {
    expect(createAuthenticator(keys)(given).ok).toBe(false);
  });

  it('accepts a key of the greatest length and refuses one longer', () => {
    const longest = 'k'.repeat(MAX_API_KEY_LENGTH);
    expect(createAuthenticator([longest])(`Bearer ${longest}`).ok).toBe(true);
    expect(apiKeyProblem(`${longest}k`, 'key')).toMatch(/is longer than 512 characters/);
  });

  it('refuses to be built over a key that could never be sent', () => {
    expect(() => createAuthenticator(['has space'])).toThrow(/cannot be sent as a bearer token/);
  });

  it('is the grammar the fixture file schema states for apiKeys (one copy, held equal here)', () => {
    const apiKeys = (FIXTURES_SCHEMA.properties as Record<string, { items: Record<string, unknown> }>)
      .apiKeys;
    expect(apiKeys?.items).toMatchObject({ pattern: BEARER_TOKEN_PATTERN, maxLength: MAX_API_KEY_LENGTH });
  });

  it('needs at least one key', () => {
    expect(() => createAuthenticator([])).toThrow(/at least one key/);
  });
});
