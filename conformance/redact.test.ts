import { describe, expect, it } from 'vitest';
import { reportRequest } from './exchange.js';
import { curlLine, redactDeep } from './redact.js';

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
