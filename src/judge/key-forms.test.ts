import { describe, expect, it } from 'vitest';
import { base64Forms, decodeLayers, MAX_LAYERS, searchViews } from './key-forms.js';

const decodeEscapes = (text: string) => decodeLayers(text)[0] ?? { text: '', origin: [] };

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

describe('decoding layer by layer', () => {
  it.each([
    ['text without escapes: one layer, unchanged', 'plain', ['plain']],
    ['a percent sign URL-encoded again', 'a%252Fb', ['a%2Fb', 'a/b']],
    ['a JSON escape URL-encoded', 'a%5C%2Fb', ['a\\/b', 'a/b']],
    ['a \\u escape of a percent sign', 'a\\u00252Fb', ['a%2Fb', 'a/b']],
    ['an HTML reference of a percent sign', 'a&#37;2Fb', ['a%2Fb', 'a/b']],
    ['a JSON string inside a JSON string', 'a\\\\\\/b', ['a\\/b', 'a/b']],
  ])('decodes %s', (_label, text, layers) => {
    const views = decodeLayers(text);
    expect(views.map((view) => view.text)).toEqual(layers);
    for (const view of views) expect(view.origin[view.text.length]).toBe(text.length);
  });

  it('maps every layer back to the original text', () => {
    const [, inner] = decodeLayers('x%2541y');
    expect(inner?.text).toBe('xAy');
    // 'A' came from '%2541', which starts at 1; 'y' is at 6 in the original.
    expect([...(inner?.origin ?? [])]).toEqual([0, 1, 6, 7]);
  });

  it(`stops after ${MAX_LAYERS} layers`, () => {
    let text = '/';
    for (let i = 0; i < MAX_LAYERS + 2; i++) text = encodeURIComponent(text);
    const views = decodeLayers(text);
    expect(views).toHaveLength(MAX_LAYERS);
    expect(views.at(-1)?.text).toBe('%252F');
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

describe('folding a view keeps the way back', () => {
  /** The original stretch of each character of the last view, as `start-end`. */
  const lastView = (text: string) => {
    const last = searchViews(text).at(-1)?.view;
    return {
      text: last?.text,
      spans: [...(last?.text ?? '')].map((_, i) => `${last?.origin[i]}-${last?.end[i]}`),
    };
  };

  it.each([
    ['drops whitespace and lowers hex letters', 'AB\r\ncd', 'abcd', ['0-1', '1-2', '4-5', '5-6']],
    ['drops a zero-width space between two characters', 'a\u200bb', 'ab', ['0-1', '2-3']],
    ['folds a fullwidth letter to its own stretch', 'xＡy', 'xay', ['0-1', '1-2', '2-3']],
    ['folds a ligature into two characters from one', 'ﬁ', 'fi', ['0-1', '0-1']],
    ['drops a line break decoded from a JSON escape', 'a\\nb', 'ab', ['0-1', '3-4']],
  ])('%s', (_label, text, want, spans) => {
    expect(lastView(text)).toEqual({ text: want, spans });
  });
});
