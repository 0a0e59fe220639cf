// The forms a target can echo the key in (docs/conformance.md): escapes decoded layer by layer, then folded.
import { decodeHTML } from 'entities';

/** How many layers of escapes are decoded (`%252F` is two). */
export const MAX_LAYERS = 4;
/** Runs at least this long of the key are secret on their own (shorter runs occur in ordinary text). */
export const FRAGMENT_CHARS = 12;
/** Shorter base64 or hex (4 bytes) is not told apart from ordinary words, ids and hashes. */
const MIN_ENCODED_CHARS = 8;

/** A text with its escapes decoded: decoded `[a, b)` is original `[origin[a], end[b - 1])`. */
export interface DecodedView {
  text: string;
  origin: number[] | Int32Array;
  end: number[] | Int32Array;
}

/** One escape: JSON's, JavaScript's, one URL-encoded character, an HTML character reference. */
const ESCAPE = new RegExp(
  [
    String.raw`\\u[0-9a-fA-F]{4}|\\u\{[0-9a-fA-F]{1,6}\}|\\x[0-9a-fA-F]{2}|\\["\\/bfnrt]`,
    '%u[0-9a-fA-F]{4}|%[0-7][0-9a-fA-F]|%[c-fC-F][0-9a-fA-F](?:%[89abAB][0-9a-fA-F]){1,3}',
    '&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});?',
  ].join('|'),
  'g',
);
const JSON_SHORT: Record<string, string> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/** `null` when the escape stands for nothing. */
function decodeOne(text: string): string | null {
  const html = text[0] === '&' ? decodeHTML(text) : undefined;
  if (html !== undefined) return html === text ? null : html;
  const hex = /^(?:\\u\{?|\\x|%u)([0-9a-fA-F]+)/.exec(text)?.[1];
  if (hex !== undefined) {
    const code = Number.parseInt(hex, 16);
    return code <= 0x10ffff ? String.fromCodePoint(code) : null;
  }
  if (text[0] === '\\') return JSON_SHORT[text[1] ?? ''] ?? text.slice(1);
  return decoded(text);
}

export function decoded(raw: string): string | null {
  try {
    return decodeURIComponent(raw);
  } catch {
    return null;
  }
}

/** Each match of `pattern` becomes `change(match)` (`null` keeps it), every character from the whole match. */
function rewrite(view: DecodedView, pattern: RegExp, change: (match: string) => string | null): DecodedView {
  const { text } = view;
  const out = { text: '', origin: [] as number[], end: [] as number[] };
  let at = 0;
  let changed = false;
  const keep = (to: number) => {
    out.text += text.slice(at, to);
    for (let k = at; k < to; k++) {
      out.origin.push(view.origin[k] ?? 0);
      out.end.push(view.end[k] ?? 0);
    }
  };
  for (const match of text.matchAll(pattern)) {
    const replacement = change(match[0]);
    if (replacement === null) continue;
    changed = true;
    const stop = match.index + match[0].length;
    keep(match.index);
    out.text += replacement;
    for (let k = 0; k < replacement.length; k++) {
      out.origin.push(view.origin[match.index] ?? 0);
      out.end.push(view.end[stop - 1] ?? 0);
    }
    at = stop;
  }
  if (!changed) return view;
  keep(text.length);
  out.origin.push(view.origin[text.length] ?? 0);
  return out;
}

/** The views of a text with its escapes decoded once, twice…, while a layer still decodes something. */
export function decodeLayers(text: string): DecodedView[] {
  const plain: DecodedView = {
    text,
    origin: new Int32Array(text.length + 1),
    end: new Int32Array(text.length),
  };
  for (let i = 0; i < text.length; i++) plain.end[i] = plain.origin[i + 1] = i + 1;
  const views = [rewrite(plain, ESCAPE, decodeOne)];
  while (views.length < MAX_LAYERS) {
    const next = rewrite(views.at(-1) as DecodedView, ESCAPE, decodeOne);
    if (next === views.at(-1)) break;
    views.push(next);
  }
  return views;
}

/** The base64 of the key in a longer value: at each byte alignment, the characters from its bits alone. */
export function base64Forms(key: string): string[] {
  const bytes = Buffer.from(key, 'utf8');
  const forms = new Set<string>();
  for (const offset of [0, 1, 2]) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
    const inner = encoded.slice(Math.ceil((offset * 8) / 6), Math.floor(((offset + bytes.length) * 8) / 6));
    forms.add(inner);
    forms.add(inner.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return [...forms];
}

/** Characters that show as nothing (zero-width, joiners, BOM, soft hyphen, bidi marks): they must not split the key. */
const INVISIBLE = /[\u00ad\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/;

/** Invisible characters dropped and compatibility forms folded (NFKC): `ｋ\u200bｅｙ` reads `key`. */
function folded(view: DecodedView): DecodedView {
  // Most texts have nothing to fold: one native pass says so.
  if (!INVISIBLE.test(view.text) && view.text.normalize('NFKC') === view.text) return view;
  return rewrite(view, /[\u0080-\u{10ffff}]/gu, (ch) => {
    if (INVISIBLE.test(ch)) return '';
    const normal = ch.normalize('NFKC');
    return normal === ch ? null : normal;
  });
}

/** `wrapped`: across whitespace (a long key only). */
export type KeyNeedles = Record<'plain' | 'wrapped' | 'base64' | 'hex', string[]>;

function asciiLower(text: string): string {
  return /[A-Z]/.test(text) ? text.replace(/[A-Z]+/g, (run) => run.toLowerCase()) : text;
}

/** Each layer, folded, then without whitespace; ASCII case ignored (an upper-cased UUID is the same key) but in base64. */
export function searchViews(text: string): Array<{ view: DecodedView; needles: keyof KeyNeedles }> {
  const views: Array<{ view: DecodedView; needles: keyof KeyNeedles }> = [];
  const lower = (view: DecodedView): DecodedView => ({ ...view, text: asciiLower(view.text) });
  for (const layer of decodeLayers(text)) {
    views.push({ view: lower(layer), needles: 'plain' });
    const fold = folded(layer);
    if (fold !== layer) views.push({ view: lower(fold), needles: 'plain' });
    const compact = rewrite(fold, /\s+/g, () => '');
    if (compact !== fold) views.push({ view: lower(compact), needles: 'wrapped' });
    views.push({ view: compact, needles: 'base64' });
    views.push({ view: lower(compact), needles: 'hex' });
  }
  return views;
}

function windows(text: string, length: number, step = 1): string[] {
  if (text.length <= length) return [text];
  return Array.from({ length: Math.floor((text.length - length) / step) + 1 }, (_, i) =>
    text.slice(i * step, i * step + length),
  );
}

const unique = (needles: string[]) => [...new Set(needles)].filter((needle) => needle !== '');

/** A key of {@link FRAGMENT_CHARS} or more characters by every run of that many, a shorter one whole; ` ` also as `+`. */
export function keyNeedles(key: string): KeyNeedles {
  const long = key.length >= FRAGMENT_CHARS;
  const spellings = key.includes(' ') ? [key, key.replace(/ /g, '+')] : [key];
  const plain = unique(
    spellings.flatMap((k) => (long ? windows(asciiLower(k), FRAGMENT_CHARS) : [asciiLower(k)])),
  );
  const base64 = unique(
    base64Forms(key)
      .filter((form) => form.length >= MIN_ENCODED_CHARS)
      .flatMap((form) => (long ? windows(form, (FRAGMENT_CHARS / 3) * 4) : [form])),
  );
  const hexKey = Buffer.from(key, 'utf8').toString('hex');
  // Runs that start on a byte are enough: any longer piece holds one.
  const hex =
    hexKey.length < MIN_ENCODED_CHARS ? [] : unique(long ? windows(hexKey, 2 * FRAGMENT_CHARS, 2) : [hexKey]);
  return { plain, wrapped: long ? unique(plain.map((n) => n.replace(/\s/g, ''))) : [], base64, hex };
}
