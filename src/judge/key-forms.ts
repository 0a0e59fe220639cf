/**
 * The forms in which a target can echo the API key back: as sent, JSON-escaped (`\/`, `\uXXXX` for any
 * character, either case; also `\u{…}` and `\xXX`), URL-encoded (`%XX` in either case, `+` for a space,
 * `%uXXXX`), as an HTML character reference as the HTML parser reads one (numeric with or without `;`,
 * named for ASCII characters), base64 (standard and url-safe) at any byte alignment, hex of its UTF-8
 * bytes in any mix of cases, or a long enough piece of any of them; each also with invisible characters
 * between its characters (zero-width spaces, joiners, a BOM), in fullwidth or other compatibility forms
 * (NFKC), and, for base64, hex and a long key, broken into lines or groups by whitespace. The key and its
 * escapes match in any case of their ASCII letters (a UUID key upper-cased is the same key); base64 keeps
 * its case.
 *
 * A server may escape any subset of the characters (only `/` as `\/`, only `+` as `\u002b`, or all of
 * them), so the forms are not listed in every combination: a text is first decoded, escape by escape, into a
 * view that remembers where each character came from, and the plain forms are searched in that view. Escapes
 * come in layers too (`%252F` is `%2F` URL-encoded again; a JSON-escaped key in a query string is
 * `%5C%2F`), so the view is decoded again, layer by layer, up to {@link MAX_LAYERS}. Each layer is then
 * folded ({@link searchViews}): invisible characters dropped, NFKC applied, whitespace dropped, always with
 * the way back to the original, so the whole original stretch is redacted.
 *
 * Every step is one pass over the text and every search is `indexOf`: the cost grows with the length of
 * the text times the number of needles, with no backtracking.
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
/** Hex shorter than this (4 bytes) is too short to be told apart from ids and hashes. */
const MIN_HEX_CHARS = 8;

/**
 * A text with its escapes decoded. `origin[i]` is where decoded character `i` starts in the original
 * text, and `origin[text.length]` is the original length; `end[i]` is where it ends. Decoded `[a, b)` is
 * original `[origin[a], end[b - 1])`: what a view drops between two characters (a zero-width space inside
 * the key) lies inside that stretch, and what it drops after the last one (a line break) does not.
 */
export interface DecodedView {
  text: string;
  origin: Int32Array;
  end: Int32Array;
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
/** `\u{1F600}` (JavaScript, Rust) and `\x41` (JavaScript, Python, C). */
const BRACED_OR_HEX2 = /^\\(?:u\{([0-9a-fA-F]{1,6})\}|x([0-9a-fA-F]{2}))/;
const PERCENT_RUN = /^(?:%[0-9a-fA-F]{2})+/;
/** JavaScript's old `escape()`: `%u002F`. */
const PERCENT_U = /^%u([0-9a-fA-F]{4})/;
/** As the HTML parser reads them: the `;` may be missing after a numeric reference. */
const CHARACTER_REFERENCE = /^&#(?:([0-9]{1,7})|[xX]([0-9a-fA-F]{1,6}));?/;
const NAMED_REFERENCE = /^&([A-Za-z]{2,16});/;
const LEGACY_REFERENCE = /^&(amp|AMP|lt|LT|gt|GT|quot|QUOT)/;
/**
 * The HTML named references of the ASCII characters a key can hold (letters and digits have none). The
 * parser decodes the legacy ones (`&amp`, `&lt`, `&gt`, `&quot` and their upper-case forms) without `;`,
 * the others only with it.
 */
const NAMED: Record<string, string> = {
  excl: '!',
  quot: '"',
  QUOT: '"',
  num: '#',
  dollar: '$',
  percnt: '%',
  amp: '&',
  AMP: '&',
  apos: "'",
  lpar: '(',
  rpar: ')',
  ast: '*',
  midast: '*',
  plus: '+',
  comma: ',',
  period: '.',
  sol: '/',
  colon: ':',
  semi: ';',
  lt: '<',
  LT: '<',
  equals: '=',
  gt: '>',
  GT: '>',
  quest: '?',
  commat: '@',
  lsqb: '[',
  lbrack: '[',
  bsol: '\\',
  rsqb: ']',
  rbrack: ']',
  Hat: '^',
  lowbar: '_',
  UnderBar: '_',
  grave: '`',
  DiacriticalGrave: '`',
  lcub: '{',
  lbrace: '{',
  verbar: '|',
  vert: '|',
  VerticalLine: '|',
  rcub: '}',
  rbrace: '}',
  Tab: '\t',
  NewLine: '\n',
  nbsp: '\u00a0',
  hyphen: '\u2010',
  dash: '\u2010',
  minus: '\u2212',
};
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The escape at `text[at]`: what it stands for and how long it is, or `null` when there is none. */
function escapeAt(text: string, at: number): { value: string; length: number } | null {
  const ch = text[at];
  if (ch === '\\') {
    const next = text[at + 1] ?? '';
    const hex = text.slice(at + 2, at + 6);
    if (next === 'u' && HEX4.test(hex))
      return { value: String.fromCharCode(Number.parseInt(hex, 16)), length: 6 };
    const other = BRACED_OR_HEX2.exec(text.slice(at, at + 11));
    if (other) {
      const code = Number.parseInt(other[1] ?? other[2] ?? '', 16);
      return code <= 0x10ffff ? { value: String.fromCodePoint(code), length: other[0].length } : null;
    }
    const short = JSON_SHORT[next];
    return short === undefined ? null : { value: short, length: 2 };
  }
  if (ch === '%') {
    const wide = PERCENT_U.exec(text.slice(at, at + 6));
    if (wide) return { value: String.fromCharCode(Number.parseInt(wide[1] ?? '', 16)), length: 6 };
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
    const ahead = text.slice(at, at + 19);
    const ref = CHARACTER_REFERENCE.exec(ahead);
    if (ref) {
      const code = ref[1] !== undefined ? Number(ref[1]) : Number.parseInt(ref[2] ?? '', 16);
      return code > 0 && code <= 0x10ffff
        ? { value: String.fromCodePoint(code), length: ref[0].length }
        : null;
    }
    const named = NAMED_REFERENCE.exec(ahead) ?? LEGACY_REFERENCE.exec(ahead);
    const value = named && Object.hasOwn(NAMED, named[1] ?? '') ? NAMED[named[1] ?? ''] : undefined;
    return named && value !== undefined ? { value, length: named[0].length } : null;
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
  const end = new Int32Array(text.length);
  let length = 0;
  let at = 0;
  const candidates = /[\\%&]/g;
  const plain = (stop: number) => {
    parts.push(text.slice(at, stop));
    for (let i = at; i < stop; i++) {
      origin[length] = i;
      end[length++] = i + 1;
    }
    at = stop;
  };
  for (let next = candidates.exec(text); next !== null; next = candidates.exec(text)) {
    if (next.index < at) continue;
    plain(next.index);
    const decoded = escapeAt(text, at);
    if (!decoded) continue;
    parts.push(decoded.value);
    for (let i = 0; i < decoded.value.length; i++) {
      origin[length] = at;
      end[length++] = at + decoded.length;
    }
    at += decoded.length;
    candidates.lastIndex = at;
  }
  plain(text.length);
  origin[length] = text.length;
  return { text: parts.join(''), origin: origin.subarray(0, length + 1), end: end.subarray(0, length) };
}

/** A view of a view, mapped back to the original text through the outer one. */
function through(outer: DecodedView, inner: DecodedView, originalLength: number): DecodedView {
  return {
    text: inner.text,
    origin: inner.origin.map((at) => outer.origin[at] ?? originalLength),
    end: inner.end.map((stop) => outer.end[stop - 1] ?? originalLength),
  };
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
    current = through(outer, next, text.length);
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

/**
 * Characters that show as nothing, so a server can put them between the key's characters and a reader
 * still sees the key: zero-width space, non-joiner and joiner, word joiner, invisible operators, BOM, soft
 * hyphen, and the bidi marks (which reports show as escapes, but which must not split the key either).
 */
const NON_ASCII = /[\u0080-\u{10ffff}]/gu;
const WHITESPACE = /\s+/g;
const INVISIBLE = /[\u00ad\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/;

/**
 * A view of a view in which each match of `pattern` (a global regex) becomes `change(match)`: `null` keeps
 * it, `''` drops it, anything else replaces it, every character of the replacement coming from the whole
 * match. One pass, mapped back through the view; the same view when nothing changed.
 */
function rewrite(view: DecodedView, pattern: RegExp, change: (match: string) => string | null): DecodedView {
  const { text } = view;
  const parts: string[] = [];
  // Room for every character kept, plus what replacements add (NFKC of `ﬁ` is `fi`), grown as needed.
  let origin = new Int32Array(text.length + 1);
  let end = new Int32Array(text.length);
  let length = 0;
  let at = 0;
  const keep = (to: number) => {
    for (let k = at; k < to; k++) {
      origin[length] = view.origin[k] ?? 0;
      end[length++] = view.end[k] ?? 0;
    }
  };
  for (const match of text.matchAll(pattern)) {
    const replacement = change(match[0]);
    if (replacement === null) continue;
    const stop = match.index + match[0].length;
    keep(match.index);
    parts.push(text.slice(at, match.index), replacement);
    if (length + replacement.length > end.length) {
      const room = end.length * 2 + replacement.length;
      const grownEnd = new Int32Array(room);
      grownEnd.set(end);
      end = grownEnd;
      const grownOrigin = new Int32Array(room + 1);
      grownOrigin.set(origin);
      origin = grownOrigin;
    }
    for (let k = 0; k < replacement.length; k++) {
      origin[length] = view.origin[match.index] ?? 0;
      end[length++] = view.end[stop - 1] ?? 0;
    }
    at = stop;
  }
  if (parts.length === 0) return view;
  keep(text.length);
  parts.push(text.slice(at));
  origin[length] = view.origin[text.length] ?? 0;
  return { text: parts.join(''), origin: origin.subarray(0, length + 1), end: end.subarray(0, length) };
}

/** Invisible characters dropped and compatibility forms folded (NFKC): `ｋ\u200bｅｙ` reads `key`. */
function folded(view: DecodedView): DecodedView {
  // Most texts have nothing to fold (ASCII is its own NFKC form, and so is most other text): one native
  // pass says so.
  if (!INVISIBLE.test(view.text) && view.text.normalize('NFKC') === view.text) return view;
  return rewrite(view, NON_ASCII, (ch) => {
    if (INVISIBLE.test(ch)) return '';
    const normal = ch.normalize('NFKC');
    return normal === ch ? null : normal;
  });
}

/** Whitespace dropped, so base64 or hex broken into lines or groups reads as one run. */
function compacted(view: DecodedView): DecodedView {
  return rewrite(view, WHITESPACE, () => '');
}

/** What the key is looked for as: see {@link keyNeedles}. */
export interface KeyNeedles {
  /** The key as sent (and `+` for a space), whole or in runs of {@link FRAGMENT_CHARS}. */
  plain: string[];
  /** The same runs, looked for across whitespace: only for a long key, whose runs are not words. */
  wrapped: string[];
  /** Its base64 forms, whole or in runs of {@link FRAGMENT_CHARS} bytes. */
  base64: string[];
  /** Hex of its UTF-8 bytes in lower case, whole or in runs of {@link FRAGMENT_CHARS} bytes. */
  hex: string[];
}

/**
 * Every view of a text in which the key is looked for, with which needles: each layer of escapes as
 * decoded (the plain key); then folded (invisible characters dropped, NFKC), where the plain key is looked
 * for again; then with whitespace dropped too, where base64 (MIME lines, groups of 10), a long key wrapped
 * across lines, and hex are looked for, hex with its letters in lower case.
 *
 * @example searchViews('6B65\n7931').at(-1)?.view.text // '6b657931'
 */
export function searchViews(text: string): Array<{ view: DecodedView; needles: keyof KeyNeedles }> {
  const views: Array<{ view: DecodedView; needles: keyof KeyNeedles }> = [];
  // The key's case is not its own: a UUID key upper-cased is the same key, and hex digits come in either
  // case. Base64 alone is searched as it is, since its case carries the bits.
  const lower = (view: DecodedView): DecodedView => ({ ...view, text: asciiLower(view.text) });
  for (const layer of decodeLayers(text)) {
    views.push({ view: lower(layer), needles: 'plain' });
    const fold = folded(layer);
    if (fold !== layer) views.push({ view: lower(fold), needles: 'plain' });
    const compact = compacted(fold);
    const compactLower = lower(compact);
    if (compact !== fold) views.push({ view: compactLower, needles: 'wrapped' });
    views.push({ view: compact, needles: 'base64' });
    views.push({ view: compactLower, needles: 'hex' });
  }
  return views;
}

/** ASCII letters in lower case, every other character kept: the length, and so the way back, is kept. */
function asciiLower(text: string): string {
  return /[A-Z]/.test(text) ? text.replace(/[A-Z]+/g, (run) => run.toLowerCase()) : text;
}

/** The runs of `text` that are `length` characters long (the whole text when it is shorter). */
function windows(text: string, length: number, step = 1): string[] {
  if (text.length <= length) return [text];
  return Array.from({ length: Math.floor((text.length - length) / step) + 1 }, (_, i) =>
    text.slice(i * step, i * step + length),
  );
}

/**
 * The plain texts whose presence in a view means the key is there. A key of {@link FRAGMENT_CHARS}
 * characters or more is found through every run of that many characters (so any longer piece of it is
 * found too, as overlapping runs); a shorter key only whole. A space in the key is also looked for as `+`.
 *
 * @example keyNeedles('k1').plain // ['k1']
 */
export function keyNeedles(key: string): KeyNeedles {
  const long = key.length >= FRAGMENT_CHARS;
  // `+` stands for a space in a query or a form body; it stays `+` in the decoded view.
  const spellings = key.includes(' ') ? [key, key.replace(/ /g, '+')] : [key];
  const plain = unique(
    spellings.flatMap((k) => (long ? windows(asciiLower(k), FRAGMENT_CHARS) : [asciiLower(k)])),
  );
  const base64 = unique(
    base64Forms(key)
      .filter((form) => form.length >= MIN_BASE64_CHARS)
      .flatMap((form) => (long ? windows(form, BASE64_FRAGMENT_CHARS) : [form])),
  );
  const hexKey = Buffer.from(key, 'utf8').toString('hex');
  // Two hex digits a byte: runs that start on a byte are enough, as any longer piece holds one.
  const hex =
    hexKey.length < MIN_HEX_CHARS ? [] : unique(long ? windows(hexKey, 2 * FRAGMENT_CHARS, 2) : [hexKey]);
  return { plain, wrapped: long ? unique(plain.map((n) => n.replace(/\s/g, ''))) : [], base64, hex };
}

function unique(needles: string[]): string[] {
  return [...new Set(needles)].filter((needle) => needle !== '');
}
