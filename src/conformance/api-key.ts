// fetch trims a header value's ends, so the key is trimmed first and what is really sent is redacted; a key
// with anything else outside visible ASCII cannot be sent as given, so it is refused.
import { fail, ok, type Result } from '../result.js';

/** A bearer token's characters are visible ASCII (RFC 6750's b64token is a subset). */
const VISIBLE_ASCII = /^[\x21-\x7e]+$/;

/** The key to send, trimmed, or why it cannot be sent (naming the character at fault, never the key). */
export function sendableKey(raw: string): Result<string, string> {
  const value = raw.replace(/^[ \t\r\n]+|[ \t\r\n]+$/g, ''); // HTTP's whitespace, as fetch trims it
  if (value === '') return fail('is empty (or only whitespace); every check needs a valid key');
  if (VISIBLE_ASCII.test(value)) return ok(value);
  const chars = [...value];
  const index = chars.findIndex((ch) => !VISIBLE_ASCII.test(ch));
  const code = chars[index]?.codePointAt(0) ?? 0;
  const what =
    code === 0x20 || code === 0x09
      ? 'whitespace'
      : code < 0x20 || code === 0x7f
        ? 'a control character'
        : 'a non-ASCII character';
  const hex = code.toString(16).toUpperCase().padStart(4, '0');
  return fail(
    `holds ${what} (U+${hex}) at character ${index + 1} of ${chars.length} (after trimming the ends), which cannot be sent in an Authorization header as given; check the secret's value`,
  );
}
