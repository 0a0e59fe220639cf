import { describe, expect, it } from 'vitest';
import { base64Forms, decodeEscapes, keyNeedles } from './key-forms.js';

describe('decoding escapes keeps the way back to the original text', () => {
  it.each([
    ['a JSON-escaped slash', 'a\\/b', 'a/b'],
    ['a \\u escape in upper-case hex', 'a\\u002Bb', 'a+b'],
    ['a \\u escape in lower-case hex', 'a\\u002bb', 'a+b'],
    ['an escaped backslash', 'a\\\\b', 'a\\b'],
    ['percent escapes in either case', '%2F%2f', '//'],
    ['a multi-byte percent escape', '%C3%A9!', 'é!'],
    ['decimal and hex character references', '&#47;&#x2F;&#X2f;', '///'],
    ['text without escapes', 'plain+text', 'plain+text'],
    ['a lone percent sign and an unknown escape', '%zz \\q &#;', '%zz \\q &#;'],
  ])('decodes %s', (_label, text, decoded) => {
    const view = decodeEscapes(text);
    expect(view.text).toBe(decoded);
    expect(view.origin[0]).toBe(0);
    expect(view.origin[view.text.length]).toBe(text.length);
  });

  it('maps each decoded character to where its escape starts', () => {
    const view = decodeEscapes('x\\u0041%42y');
    expect(view.text).toBe('xABy');
    expect([...view.origin]).toEqual([0, 1, 7, 10, 11]);
  });
});

describe('base64 forms', () => {
  it.each([0, 1, 2])('finds the key inside base64 text at byte offset %i', (offset) => {
    const key = 'a-key-of-some-length';
    const encoded = Buffer.from(`${'#'.repeat(offset)}${key}!`).toString('base64');
    expect(base64Forms(key).some((form) => encoded.includes(form))).toBe(true);
  });

  it('gives the url-safe alphabet too', () => {
    const forms = base64Forms('~~~???');
    expect(forms).toContain('fn5+Pz8/');
    expect(forms).toContain('fn5-Pz8_');
  });
});

describe('what is looked for', () => {
  it('looks for a long key through every run of 12 characters', () => {
    const key = 'abcdefghijklmn';
    expect(keyNeedles(key)).toEqual(expect.arrayContaining(['abcdefghijkl', 'bcdefghijklm', 'cdefghijklmn']));
  });

  it('looks for a short key only whole, and not for base64 shorter than 8 characters', () => {
    expect(keyNeedles('k1')).toEqual(['k1']);
  });

  it('looks for a space in a key as + too', () => {
    expect(keyNeedles('a b')).toEqual(['a b', 'a+b']);
  });
});
