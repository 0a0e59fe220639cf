/**
 * Keeping the API key out of every output. Requests are recorded with the key already replaced, and the
 * whole result goes through {@link redactDeep} once more before anyone sees it, because a target can
 * echo the key back in a body or a header, encoded: key-forms.ts lists the forms found (docs/conformance.md
 * says which cannot be, and why).
 *
 * Everything here works on plain values and a key, not on a run, so any report of any tool (the
 * conformance suite, the validating proxy) redacts the same way.
 */
import { type KeyNeedles, keyNeedles, searchViews } from './key-forms.js';

export const REDACTED = '<redacted>';
/** What curl lines use instead of the key, so they run as printed once the variable is set. */
export const KEY_VARIABLE = '$PETSTORE_API_KEY';

/** Below this length a key can also occur in unrelated words, which redaction then hides too. */
export const SHORT_KEY = 12;

/** The needles of the last keys used: a run redacts thousands of strings with one key. */
const needles = new Map<string, KeyNeedles>();

function needlesFor(key: string): KeyNeedles {
  let found = needles.get(key);
  if (!found) {
    if (needles.size > 8) needles.clear();
    found = keyNeedles(key);
    needles.set(key, found);
  }
  return found;
}

/**
 * The stretches of `text` that hold the key in some form (key-forms.ts), in any layer of escapes and any
 * folding of it, overlapping ones joined.
 */
export function keySpans(text: string, key: string): Array<[start: number, end: number]> {
  if (key.length === 0 || text.length === 0) return [];
  const found: Array<[number, number]> = [];
  const forms = needlesFor(key);
  // Every layer is searched: a deeper one decodes more, but could also decode away an escape-like
  // sequence that a shallower one showed next to the key.
  for (const { view, needles } of searchViews(text)) {
    for (const needle of forms[needles]) {
      for (let at = view.text.indexOf(needle); at !== -1; at = view.text.indexOf(needle, at + 1)) {
        found.push([view.origin[at] ?? 0, view.end[at + needle.length - 1] ?? text.length]);
      }
    }
  }
  found.sort((x, y) => x[0] - y[0]);
  const spans: Array<[number, number]> = [];
  for (const [start, end] of found) {
    const last = spans.at(-1);
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else spans.push([start, end]);
  }
  return spans;
}

/**
 * Query parameters whose values are credentials by their name, whoever sent them: EventSource, `<img>` and
 * WebSocket URLs cannot set `Authorization`, so pages put the key there.
 */
export const CREDENTIAL_PARAMETER = /^(?:access_token|api_key|apikey|key|token)$/i;
// A value ends where a URL or the prose around it does: a backtick or a parenthesis is never part of a
// bearer token (RFC 6750 b64token), and in a URL it would be percent-encoded.
const CREDENTIAL_VALUE = /(^|[?&;])(access_token|api_key|apikey|key|token)=([^&#\s"'<>`()]+)/gi;

/**
 * Replaces every occurrence of the key in a text, in any of its forms (key-forms.ts), and the value of
 * every credential-like query parameter ({@link CREDENTIAL_PARAMETER}) written as `name=value`.
 *
 * @example redactText('key=target-secret-key-5b1e9c', 'target-secret-key-5b1e9c') // 'key=<redacted>'
 */
export function redactText(text: string, key: string, replacement: string = REDACTED): string {
  const spans = keySpans(text, key);
  let out = '';
  let at = 0;
  for (const [start, end] of spans) {
    out += text.slice(at, start) + replacement;
    at = end;
  }
  out += text.slice(at);
  // A value already replaced (the key as `$PETSTORE_API_KEY` in a curl line) stays as it is.
  return out.replace(CREDENTIAL_VALUE, (whole, before: string, name: string, value: string) =>
    value === replacement || value === KEY_VARIABLE ? whole : `${before}${name}=${REDACTED}`,
  );
}

/** Redacts several keys in turn (the CLI knows every key it was given, trimmed or not). */
export function redactKeys(text: string, keys: readonly string[], replacement: string = REDACTED): string {
  return keys.reduce((t, key) => redactText(t, key, replacement), text);
}

/**
 * Fields whose values the suite itself writes (check ids, outcomes, levels, citations…), never the target.
 * They are left alone so that a short key cannot rewrite the report's structure: a key of `x` must not turn
 * `exercised` into `e<redacted>ercised` or an outcome into `<redacted>`.
 */
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

/**
 * Returns a copy of a JSON-like value with the key replaced in every string the target could have
 * influenced: string values, and the names in `headers` maps (a target chooses its header names). Other
 * object keys and the suite's own fields ({@link OWN_FIELDS}) are the report's structure, not data.
 *
 * @example redactDeep({ a: ['Bearer k1'] }, 'k1') // { a: ['Bearer <redacted>'] }
 */
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

/**
 * A curl line that repeats a request. The key must already be replaced by {@link KEY_VARIABLE}.
 *
 * @example curlLine('GET', 'http://h/v1/store/orders', { authorization: 'Bearer $PETSTORE_API_KEY' })
 */
export function curlLine(
  method: string,
  url: string,
  headers: Record<string, string>,
  body?: string,
): string {
  const parts = ['curl', '-i', '-X', method];
  for (const [name, value] of Object.entries(headers)) parts.push('-H', shellQuote(`${name}: ${value}`));
  if (body !== undefined) parts.push('--data-raw', shellQuote(body));
  // A request that asked for a compressed answer: curl decodes it, as the sender did.
  const encoding = Object.entries(headers).find(([name]) => name.toLowerCase() === 'accept-encoding')?.[1];
  if (encoding !== undefined && /gzip|deflate|br|zstd/i.test(encoding)) parts.push('--compressed');
  parts.push(shellQuote(url));
  return parts.join(' ');
}
