import { describe, expect, it } from 'vitest';
import { sendableKey } from './options.js';

describe('the key as it will be sent', () => {
  it.each([
    ['a trailing newline, as a secret file has', 'k3y-value\n', 'k3y-value'],
    ['a trailing CRLF', 'k3y-value\r\n', 'k3y-value'],
    ['spaces and tabs around it', ' \tk3y-value \t', 'k3y-value'],
    ['every visible ASCII character', '!~"\\/+=%', '!~"\\/+=%'],
  ])('trims %s', (_label, raw, sent) => {
    expect(sendableKey(raw)).toEqual({ ok: true, value: sent });
  });

  it.each([
    ['inner whitespace', 'k3y value', /whitespace \(U\+0020\) at character 4 of 9/],
    ['an inner newline', 'k3y\nvalue', /a control character \(U\+000A\) at character 4/],
    ['a NUL', 'k3y\u0000', /a control character \(U\+0000\)/],
    [
      'a non-breaking space at the end (not HTTP whitespace)',
      'k3y\u00a0',
      /a non-ASCII character \(U\+00A0\)/,
    ],
    ['a non-ASCII letter', 'kéy', /a non-ASCII character \(U\+00E9\) at character 2/],
    ['only whitespace', ' \n', /is empty/],
  ])('refuses a key with %s, without printing it', (_label, raw, message) => {
    const result = sendableKey(raw);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toMatch(message);
    if (raw.trim() !== '') expect(result.error).not.toContain(raw.trim());
  });
});
