/**
 * The forms in which a target can echo the API key back: as sent, JSON-escaped (`\/`, `\uXXXX` for any
 * character, either case), URL-encoded (`%XX` in either case, `+` for a space), as an HTML character
 * reference, base64 (standard and url-safe) at any byte alignment, or a long enough piece of any of them.
 *
 * A server may escape any subset of the characters (only `/` as `\/`, only `+` as `\u002b`, or all of
 * them), so the forms are not listed in every combination: a text is first decoded, escape by escape, into a
 * view that remembers where each character came from, and the plain forms are searched in that view. Escapes
 * come in layers too (`%252F` is `%2F` URL-encoded again; a JSON-escaped key in a query string is
 * `%5C%2F`), so the view is decoded again, layer by layer, up to {@link MAX_LAYERS}.
 */

/**
 * How many layers of escapes are decoded. Two cover the layerings seen in practice (`%252F`, a URL-encoded
 * JSON escape, URL-encoded base64); a layer more costs nothing for a text that has none.
 */
export const MAX_LAYERS = 4;
/** Runs at least this long of the key are secret on their own (shorter runs occur in ordinary text). */
export const FRAGMENT_CHARS = 12;
/** Base64 text shorter than this is too short to be told apart from ordinary words. */
const MIN_BASE64_CHARS = 8;
/** A run of base64 text this long encodes {@link FRAGMENT_CHARS} bytes of the key. */
const BASE64_FRAGMENT_CHARS = (FRAGMENT_CHARS / 3) * 4;

/**
 * A text with its escapes decoded. `origin[i]` is where decoded character `i` starts in the original
 * text, and `origin[text.length]` is the original length, so decoded `[a, b)` is original
 * `[origin[a], origin[b])`.
 */
export interface DecodedView {
  text: string;
  origin: Int32Array;
}

const JSON_SHORT: Record<string, string> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};

const HEX4 = /^[0-9a-fA-F]{4}$/;
const PERCENT_RUN = /^(?:%[0-9a-fA-F]{2})+/;
const CHARACTER_REFERENCE = /^&#(?:([0-9]{1,7})|[xX]([0-9a-fA-F]{1,6}));/;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The escape at `text[at]`: what it stands for and how long it is, or `null` when there is none. */
function escapeAt(text: string, at: number): { value: string; length: number } | null {
  const ch = text[at];
  if (ch === '\\') {
    const next = text[at + 1] ?? '';
    const hex = text.slice(at + 2, at + 6);
    if (next === 'u' && HEX4.test(hex))
      return { value: String.fromCharCode(Number.parseInt(hex, 16)), length: 6 };
    const short = JSON_SHORT[next];
    return short === undefined ? null : { value: short, length: 2 };
  }
  if (ch === '%') {
    // A run of %XX is UTF-8 bytes: decode the whole run, or one byte when the run is not valid UTF-8.
    const run = PERCENT_RUN.exec(text.slice(at, at + 3 * 64))?.[0];
    if (!run) return null;
    const bytes = Uint8Array.from(run.match(/[0-9a-fA-F]{2}/g) ?? [], (h) => Number.parseInt(h, 16));
    const first = bytes[0] ?? 0;
    if (first < 0x80) return { value: String.fromCharCode(first), length: 3 };
    try {
      const decoded = utf8.decode(bytes);
      // One character at a time keeps the origin map exact; take the first character's bytes.
      const firstChar = String.fromCodePoint(decoded.codePointAt(0) ?? 0);
      return { value: firstChar, length: 3 * Buffer.byteLength(firstChar, 'utf8') };
    } catch {
      return null;
    }
  }
  if (ch === '&') {
    const ref = CHARACTER_REFERENCE.exec(text.slice(at, at + 12));
    if (!ref) return null;
    const code = ref[1] !== undefined ? Number(ref[1]) : Number.parseInt(ref[2] ?? '', 16);
    if (!(code > 0 && code <= 0x10ffff)) return null;
    return { value: String.fromCodePoint(code), length: ref[0].length };
  }
  return null;
}

/**
 * Decodes every JSON, URL and HTML escape in a text, one level deep, keeping the way back.
 *
 * @example decodeEscapes('a\\/b%2Bc').text // 'a/b+c'
 */
export function decodeEscapes(text: string): DecodedView {
  const parts: string[] = [];
  const origin = new Int32Array(text.length + 1);
  let length = 0;
  let at = 0;
  const candidates = /[\\%&]/g;
  const plain = (end: number) => {
    parts.push(text.slice(at, end));
    for (let i = at; i < end; i++) origin[length++] = i;
    at = end;
  };
  for (let next = candidates.exec(text); next !== null; next = candidates.exec(text)) {
    if (next.index < at) continue;
    plain(next.index);
    const decoded = escapeAt(text, at);
    if (!decoded) continue;
    parts.push(decoded.value);
    for (let i = 0; i < decoded.value.length; i++) origin[length++] = at;
    at += decoded.length;
    candidates.lastIndex = at;
  }
  plain(text.length);
  origin[length] = text.length;
  return { text: parts.join(''), origin: origin.subarray(0, length + 1) };
}

/**
 * The views of a text with its escapes decoded once, twice, and so on, for as long as a layer still decodes
 * something (at most {@link MAX_LAYERS}). Each view's `origin` points into the original text, so a key
 * found in any layer names the stretch of the original that holds it.
 *
 * @example decodeLayers('a%252Fb').map((view) => view.text) // ['a%2Fb', 'a/b']
 */
export function decodeLayers(text: string): DecodedView[] {
  let current = decodeEscapes(text);
  const views = [current];
  // Every escape is longer than what it stands for, so a layer decoded something exactly when it is shorter.
  let decoded = current.text.length < text.length;
  while (decoded && views.length < MAX_LAYERS) {
    const outer = current;
    const next = decodeEscapes(outer.text);
    decoded = next.text.length < outer.text.length;
    if (!decoded) break;
    current = { text: next.text, origin: next.origin.map((at) => outer.origin[at] ?? text.length) };
    views.push(current);
  }
  return views;
}

/**
 * The base64 text that encodes the key wherever it sits in a longer value: at each of the three byte
 * alignments, only the characters that depend on the key's bits alone (the ones next to the neighbouring
 * bytes change with them), in the standard and the url-safe alphabets.
 *
 * @example base64Forms('abc') // ['YWJj', 'FiY', 'hYm']
 */
export function base64Forms(key: string): string[] {
  const bytes = Buffer.from(key, 'utf8');
  const forms = new Set<string>();
  for (const offset of [0, 1, 2]) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
    const first = Math.ceil((offset * 8) / 6);
    const end = Math.floor(((offset + bytes.length) * 8) / 6);
    const inner = encoded.slice(first, end);
    forms.add(inner);
    forms.add(inner.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return [...forms];
}

/** The runs of `text` that are `length` characters long (the whole text when it is shorter). */
function windows(text: string, length: number): string[] {
  if (text.length <= length) return [text];
  return Array.from({ length: text.length - length + 1 }, (_, i) => text.slice(i, i + length));
}

/**
 * The plain texts whose presence in a decoded view means the key is there. A key of {@link FRAGMENT_CHARS}
 * characters or more is found through every run of that many characters (so any longer piece of it is
 * found too, as overlapping runs); a shorter key only whole. A space in the key is also looked for as `+`.
 *
 * @example keyNeedles('k1') // ['k1']
 */
export function keyNeedles(key: string): string[] {
  const long = key.length >= FRAGMENT_CHARS;
  // `+` stands for a space in a query or a form body; it stays `+` in the decoded view.
  const spellings = key.includes(' ') ? [key, key.replace(/ /g, '+')] : [key];
  const texts = spellings.flatMap((k) => (long ? windows(k, FRAGMENT_CHARS) : [k]));
  const base64 = base64Forms(key)
    .filter((form) => form.length >= MIN_BASE64_CHARS)
    .flatMap((form) => (long ? windows(form, BASE64_FRAGMENT_CHARS) : [form]));
  return [...new Set([...texts, ...base64])].filter((needle) => needle !== '');
}
