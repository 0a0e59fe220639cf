/** The API key kept out of every output: a target can echo it back in any form (key-forms.ts). */
import { type KeyNeedles, keyNeedles, searchViews } from './key-forms.js';

export const REDACTED = '<redacted>';
/** What curl lines use instead of the key, so they run as printed once the variable is set. */
export const KEY_VARIABLE = '$PETSTORE_API_KEY';

/** Below this length a key can also occur in unrelated words, which redaction then hides too. */
export const SHORT_KEY = 12;

/** A run redacts thousands of strings with one key. */
const needles = new Map<string, KeyNeedles>();

function needlesFor(key: string): KeyNeedles {
  if (needles.size > 8 && !needles.has(key)) needles.clear();
  const found = needles.get(key) ?? keyNeedles(key);
  needles.set(key, found);
  return found;
}

/** Query parameters that carry credentials by name (EventSource, `<img>` and WebSocket URLs can set no header). */
export const CREDENTIAL_PARAMETER = /^(?:access_token|api_key|apikey|key|token)$/i;
// A backtick or a parenthesis is never part of a bearer token (RFC 6750 b64token): the prose around it.
const CREDENTIAL_VALUE = /(^|[?&;])(access_token|api_key|apikey|key|token)=([^&#\s"'<>`()]+)/gi;

/** Replaces the key in any of its forms, and every credential-like query parameter's value. */
export function redactText(text: string, key: string, replacement: string = REDACTED): string {
  const found: Array<[start: number, end: number]> = [];
  const forms = needlesFor(key);
  // Every layer: a deeper one could decode away an escape-like text a shallower one showed by the key.
  for (const { view, needles } of key === '' ? [] : searchViews(text)) {
    for (const needle of forms[needles]) {
      for (let at = view.text.indexOf(needle); at !== -1; at = view.text.indexOf(needle, at + 1)) {
        found.push([view.origin[at] ?? 0, view.end[at + needle.length - 1] ?? text.length]);
      }
    }
  }
  let out = '';
  let at = -1;
  // Overlapping or touching stretches are one.
  for (const [start, end] of found.sort((x, y) => x[0] - y[0])) {
    if (start > at) out += text.slice(Math.max(at, 0), start) + replacement;
    at = Math.max(at, end);
  }
  out += text.slice(Math.max(at, 0));
  // A value already replaced (the key as `$PETSTORE_API_KEY` in a curl line) stays as it is.
  return out.replace(CREDENTIAL_VALUE, (whole, before: string, name: string, value: string) =>
    value === replacement || value === KEY_VARIABLE ? whole : `${before}${name}=${REDACTED}`,
  );
}

/** Redacts several keys in turn (the CLI knows every key it was given, trimmed or not). */
export function redactKeys(text: string, keys: readonly string[], replacement: string = REDACTED): string {
  return keys.reduce((t, key) => redactText(t, key, replacement), text);
}

/** Fields the suite writes, never the target: a short key such as `x` must not rewrite `exercised`. */
const OWN_FIELDS = new Set([
  'id',
  'title',
  'citation',
  'level',
  'outcome',
  'operationId',
  'tool',
  'contractVersion',
  'stability',
  'enableWith',
  'hint',
  'startedAt',
]);

/** A copy with the key replaced in every string a target could influence (values, `headers` names). */
export function redactDeep<T>(value: T, key: string, namesAreData = false): T {
  if (typeof value === 'string') return redactText(value, key) as T;
  if (Array.isArray(value)) return value.map((item) => redactDeep(item, key)) as T;
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const name = namesAreData ? redactText(k, key) : k;
      out[name] = OWN_FIELDS.has(k) && typeof v === 'string' ? v : redactDeep(v, key, k === 'headers');
    }
    return out as T;
  }
  return value;
}

/** Quotes a word for a POSIX shell, leaving `$PETSTORE_API_KEY` expandable. */
function shellQuote(text: string): string {
  if (text.includes(KEY_VARIABLE)) return `"${text.replace(/(["\\`])/g, '\\$1')}"`;
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** A curl line that repeats a request, the key already replaced by {@link KEY_VARIABLE}. */
export function curlLine(
  method: string,
  url: string,
  headers: Record<string, string>,
  body?: string,
): string {
  const parts = ['curl', '-i', '-X', method];
  for (const [name, value] of Object.entries(headers)) parts.push('-H', shellQuote(`${name}: ${value}`));
  if (body !== undefined) parts.push('--data-raw', shellQuote(body));
  const encoding = Object.entries(headers).find(([name]) => name.toLowerCase() === 'accept-encoding')?.[1];
  if (encoding !== undefined && /gzip|deflate|br|zstd/i.test(encoding)) parts.push('--compressed');
  parts.push(shellQuote(url));
  return parts.join(' ');
}
