import { describe, expect, it } from 'vitest';
import { reportRequest } from './exchange.js';
import { curlLine, redactDeep, redactText } from './redact.js';

describe('redaction', () => {
  it('replaces the key in every string and in header names', () => {
    expect(redactDeep({ a: ['Bearer k-123', 1], headers: { 'x-k-123': 'k-123' } }, 'k-123')).toEqual({
      a: ['Bearer <redacted>', 1],
      headers: { 'x-<redacted>': '<redacted>' },
    });
  });

  it("leaves the report's own structure alone when the key is short", () => {
    const report = { outcome: 'PASS', id: 'auth.listOrders.no-header', exercised: [200], message: 'sent x' };
    expect(redactDeep(report, 'x')).toEqual({ ...report, message: 'sent <redacted>' });
  });

  it('shows headers redacted and lets curl read the key from $PETSTORE_API_KEY', () => {
    const request = reportRequest(
      'DELETE',
      'http://h/v1/store/orders/1',
      { authorization: 'Token s3cr3t' },
      's3cr3t',
    );
    expect(request.headers.authorization).toBe('Token <redacted>');
    expect(request.curl).toBe(
      `curl -i -X DELETE -H "authorization: Token $PETSTORE_API_KEY" 'http://h/v1/store/orders/1'`,
    );
  });

  it.each([
    ['a single quote', "http://h/v1/it's", `curl -i -X GET 'http://h/v1/it'\\''s'`],
    ['a dollar sign', 'http://h/v1/$HOME', `curl -i -X GET 'http://h/v1/$HOME'`],
  ])('quotes %s for the shell', (_label, url, want) => {
    expect(curlLine('GET', url, {})).toBe(want);
  });
});

describe('redaction finds the key in every form a target can echo it', () => {
  const key = 'k3y/with+odd=chars~?-0123';
  it.each([
    ['as sent', key],
    ['with escaped slashes', key.replace(/\//g, '\\/')],
    ['with one \\u escape', key.replace('+', '\\u002B')],
    ['URL-encoded', encodeURIComponent(key)],
    ['URL-encoded in lower case', encodeURIComponent(key).toLowerCase()],
    ['as base64 after two bytes', Buffer.from(`ab${key}`).toString('base64')],
    ['as base64url after one byte', Buffer.from(`a${key}`).toString('base64url')],
    ['as a 12-character piece', key.slice(5, 17)],
  ])('%s', (_label, echoed) => {
    const redacted = redactText(`before ${echoed} after`, key);
    expect(redacted).toMatch(/^before \S*<redacted>\S* after$/);
    expect(redacted).not.toContain(echoed);
  });

  it('leaves an 11-character piece and unrelated text alone', () => {
    expect(redactText(`x ${key.slice(0, 11)} y`, key)).toBe(`x ${key.slice(0, 11)} y`);
  });

  it('joins overlapping pieces into one redaction', () => {
    expect(redactText(`${key}${key}`, key)).toBe('<redacted>');
  });

  it('redacts inside a value that is redacted field by field', () => {
    const echoed = { actual: { bodyExcerpt: `{"m":"${encodeURIComponent(key)}"}` } };
    expect(redactDeep(echoed, key)).toEqual({ actual: { bodyExcerpt: '{"m":"<redacted>"}' } });
  });
});
