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

  // Every other character of this key is escaped in each form, so no 12-character run of it is left in
  // plain text after one layer of decoding: only a decoder that goes deeper finds it.
  const dense = 'k/e+y=/k+e=y/k+e=y/k+e=y?';
  const url = encodeURIComponent;
  it.each([
    ['URL-encoded twice (%252F)', url(url(dense))],
    ['URL-encoded twice, lower-case hex', url(url(dense)).toLowerCase()],
    ['URL-encoded three times', url(url(url(dense)))],
    ['JSON-escaped, then URL-encoded', url(dense.replace(/\//g, '\\/'))],
    [
      'JSON \\u escapes, then URL-encoded',
      url(dense.replace(/[/+=?]/g, (c) => `\\u00${c.charCodeAt(0).toString(16)}`)),
    ],
    ['URL-encoded, then the percent signs as \\u0025', url(dense).replace(/%/g, '\\u0025')],
    ['JSON-escaped twice (a JSON string in a JSON string)', dense.replace(/\//g, '\\\\\\/')],
    ['HTML references of the URL-encoded form', url(dense).replace(/%/g, '&#37;')],
  ])('in layers: %s', (_label, echoed) => {
    expect(redactText(`before ${echoed} after`, dense)).toBe('before <redacted> after');
  });

  // A key whose base64 is full of `+` and `/`, the characters a URL encodes. Base64 keeps what does not
  // depend on the key alone: `Bearer ` (QmVhcmVyIG) and the last, padded group.
  const spiky = 'k~?>e~?>y~?>k~?>e~?>y~?>';
  const spiky64 = Buffer.from(`Bearer ${spiky}`).toString('base64'); // QmVhcmVyIGt+Pz5lfj8+eX4/…
  it.each([
    ['base64 of the header, URL-encoded', url(spiky64), 'QmVhcmVyIG<redacted>g%3D%3D'],
    ['base64 of the header, URL-encoded twice', url(url(spiky64)), 'QmVhcmVyIG<redacted>g%253D%253D'],
    [
      'base64 of the header with JSON-escaped slashes, URL-encoded',
      url(spiky64.replace(/\//g, '\\/')),
      'QmVhcmVyIG<redacted>g%3D%3D',
    ],
  ])('in layers: %s', (_label, echoed, left) => {
    expect(redactText(`before ${echoed} after`, spiky)).toBe(`before ${left} after`);
  });

  // Forms that are not escapes: hex, base64 broken into lines or groups, invisible characters between the
  // key's characters, fullwidth. Each is redacted whole, and the text around it is left as it was.
  const hex = Buffer.from(key).toString('hex');
  const b64 = Buffer.from(key).toString('base64');
  const fullwidth = (text: string) =>
    [...text].map((c) => (c > ' ' && c <= '~' ? String.fromCharCode(c.charCodeAt(0) + 0xfee0) : c)).join('');
  it.each([
    ['as hex in lower case', hex],
    ['as hex in upper case', hex.toUpperCase()],
    ['as hex in mixed case', [...hex].map((c, i) => (i % 3 === 0 ? c.toUpperCase() : c)).join('')],
    ['as hex in groups of two, space-separated', hex.replace(/(..)(?!$)/g, '$1 ')],
    ['as hex of a 12-byte piece', Buffer.from(key.slice(3, 15)).toString('hex')],
    ['with a zero-width space between every character', [...key].join('\u200b')],
    [
      'with a zero-width joiner, a word joiner and a BOM between characters',
      [...key].join('\u200d\u2060\ufeff'),
    ],
    ['with a soft hyphen between characters', [...key].join('\u00ad')],
    ['as JSON \\u200b escapes between characters', [...key].join('\\u200b')],
    ['in fullwidth forms', fullwidth(key)],
    ['in fullwidth forms with zero-width spaces', [...fullwidth(key)].join('\u200c')],
    ['as fullwidth hex', fullwidth(hex.toUpperCase())],
    ['wrapped across two lines', `${key.slice(0, 15)}\n${key.slice(15)}`],
  ])('%s', (_label, echoed) => {
    expect(redactText(`before ${echoed} after`, key)).toBe('before <redacted> after');
  });

  // The last base64 group also holds the padding bits, so it is not the key's alone and may stay.
  it.each([
    [
      'as base64url broken by tabs',
      Buffer.from(key)
        .toString('base64url')
        .replace(/(.{8})(?!$)/g, '$1\t'),
    ],
    ['as base64 broken every 10 characters by \\n', b64.replace(/(.{10})(?!$)/g, '$1\n')],
    ['as base64 broken every 10 characters by spaces', b64.replace(/(.{10})(?!$)/g, '$1 ')],
    ['as base64 with CRLF after every 4 characters', b64.replace(/(.{4})(?!$)/g, '$1\r\n')],
    ['as base64 in a JSON string with \\n escapes', b64.replace(/(.{10})(?!$)/g, '$1\\n')],
  ])('%s', (_label, echoed) => {
    expect(redactText(`before ${echoed} after`, key)).toMatch(/^before <redacted>[\s\S]{0,6} after$/);
  });

  it('maps a fullwidth key back to exactly its own stretch', () => {
    const text = `ｘｘ${fullwidth(key)}ｙｙ`;
    expect(redactText(text, key)).toBe('ｘｘ<redacted>ｙｙ');
  });

  it('leaves hex and base64 of other bytes alone', () => {
    const other = `${Buffer.from('another-value-entirely').toString('hex')} ${Buffer.from('x'.repeat(30)).toString('base64')}`;
    expect(redactText(other, key)).toBe(other);
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

describe('redaction reads the key as an HTML parser or a JavaScript decoder would (issue 25)', () => {
  const uuid = 'c0ffee00-1234-4abc-9def-0123456789ab';
  const odd = 'k3y/with+odd=chars~?-0123';
  const every = (text: string, spell: (c: string) => string) => [...text].map(spell).join('');
  const code = (c: string) => c.charCodeAt(0);
  it.each([
    ['a UUID key upper-cased', uuid, uuid.toUpperCase()],
    ['a key in mixed case', odd, odd.replace(/[a-z]/g, (c, i: number) => (i % 2 ? c.toUpperCase() : c))],
    [
      'named references (&sol; &plus; &equals; &quest;)',
      odd,
      odd.replace('/', '&sol;').replace('+', '&plus;').replace('=', '&equals;').replace('?', '&quest;'),
    ],
    ['decimal references without ;', odd, every(odd, (c) => `&#${code(c)}`)],
    ['hex references without ;', odd, every(odd, (c) => `&#x${code(c).toString(16)}`)],
    ['%uXXXX escapes', odd, every(odd, (c) => `%u${code(c).toString(16).padStart(4, '0')}`)],
    ['\\u{…} escapes', odd, every(odd, (c) => `\\u{${code(c).toString(16)}}`)],
    ['\\xXX escapes', odd, every(odd, (c) => `\\x${code(c).toString(16)}`)],
  ])('%s', (_label, key, echoed) => {
    expect(redactText(`before ${echoed} after`, key)).toBe('before <redacted> after');
  });

  it('decodes every named reference of the HTML table, not only those of ASCII characters', () => {
    expect(redactText('x=caf&eacute;-key-0123456', 'café-key-0123456')).toBe('x=<redacted>');
  });

  it('decodes the legacy &amp without ; but no other named reference', () => {
    expect(redactText('x=a&ampb&solc', 'a&b&solc')).toBe('x=<redacted>');
    expect(redactText('x=a&amp;b&sol c', 'a&b/ c')).toBe('x=a&amp;b&sol c');
  });
});

describe('the values of credential-like query parameters are redacted whatever the key (issue 25)', () => {
  it.each([
    ['api_key', 'GET /v1/store/orders?api_key=s1&x=1', 'GET /v1/store/orders?api_key=<redacted>&x=1'],
    ['access_token in upper case', 'wss://h/v1?ACCESS_TOKEN=abc.def', 'wss://h/v1?ACCESS_TOKEN=<redacted>'],
    ['apikey after another parameter', '/x?a=1&apikey=zz#top', '/x?a=1&apikey=<redacted>#top'],
    ['key after ;', '/x?a=1;key=k', '/x?a=1;key=<redacted>'],
    ['token in a sentence', 'GET /x?token=t answered 500', 'GET /x?token=<redacted> answered 500'],
    ['a longer name is not one', '/x?monkey=3&keys=4', '/x?monkey=3&keys=4'],
    [
      'in prose, the value ends at a backtick or parenthesis',
      'sent (`?api_key=k1`) here',
      'sent (`?api_key=<redacted>`) here',
    ],
    [
      'a parameter named in prose, with no value, keeps the prose',
      'only in (`?api_key=`) with',
      'only in (`?api_key=`) with',
    ],
  ])('%s', (_label, text, want) => {
    expect(redactText(text, 'some-other-key-123')).toBe(want);
  });

  it('keeps the curl variable where the key itself was in the query', () => {
    const request = reportRequest(
      'GET',
      'http://h/v1/store/orders?api_key=s3cr3t-key-42',
      {},
      's3cr3t-key-42',
    );
    expect(request.url).toBe('http://h/v1/store/orders?api_key=<redacted>');
    expect(request.curl).toContain('/store/orders?api_key=$PETSTORE_API_KEY');
  });
});
