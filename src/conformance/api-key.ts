/**
 * The API key as it will be sent. A key read from a secret file often ends in a newline or a space; fetch
 * trims those from a header value before sending it, so the suite trims first and redacts what is really
 * sent. A key that still holds anything but visible ASCII (inner whitespace, control characters, non-ASCII)
 * cannot be sent as it was given, so it is refused instead of being mangled on the way.
 */
import type { Result } from '../result.js';

/** What fetch trims from both ends of a header value (HTTP whitespace). */
const HTTP_WHITESPACE = /^[ \t\r\n]+|[ \t\r\n]+$/g;
/** A bearer token's characters are visible ASCII (RFC 6750's b64token is a subset). */
const VISIBLE_ASCII = /^[\x21-\x7e]+$/;

/** The key to send, or why it cannot be sent. */
export type KeyResult = Result<string, string>;

function describe(ch: string): string {
  const code = ch.codePointAt(0) ?? 0;
  const hex = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  if (ch === ' ' || ch === '\t') return `whitespace (${hex})`;
  if (code < 0x20 || code === 0x7f) return `a control character (${hex})`;
  return `a non-ASCII character (${hex})`;
}

/**
 * The key to send, trimmed, or why it cannot be sent. The message never holds the key itself, only the
 * position and kind of the character at fault.
 *
 * @example sendableKey('s3cr3t-key\n') // { ok: true, value: 's3cr3t-key' }
 * @example sendableKey('s3cr3t key')   // { ok: false, error: 'holds whitespace (U+0020) at character 7 …' }
 */
export function sendableKey(raw: string): KeyResult {
  const value = raw.replace(HTTP_WHITESPACE, '');
  if (value === '')
    return { ok: false, error: 'is empty (or only whitespace); every check needs a valid key' };
  if (VISIBLE_ASCII.test(value)) return { ok: true, value };
  const chars = [...value];
  const index = chars.findIndex((ch) => !VISIBLE_ASCII.test(ch));
  return {
    ok: false,
    error: `holds ${describe(chars[index] ?? '')} at character ${index + 1} of ${chars.length} (after trimming the ends), which cannot be sent in an Authorization header as given; check the secret's value`,
  };
}
