/** The one int64 grammar (D8): canonical decimal only; imports nothing, so a page checks ids without the document. */
import { fail, ok, type Result } from '../result.js';

export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;

const CANONICAL_INTEGER = /^(?:0|-?[1-9][0-9]*)$/;

/** @example parseInt64('9007199254740993') // { ok: true, value: 9007199254740993n } */
export function parseInt64(text: string): Result<bigint, string> {
  if (text.length > 20 || !CANONICAL_INTEGER.test(text))
    return fail(
      `must be an integer written in plain decimal (no sign on 0, no leading zeros), got ${JSON.stringify(text.slice(0, 40))}`,
    );
  const value = BigInt(text);
  if (value < INT64_MIN || value > INT64_MAX)
    return fail(`must be within int64 (−2^63 … 2^63−1), got ${text}`);
  return ok(value);
}

/** @example isInt64String(new URLSearchParams(location.search).get('order') ?? '') // narrows to `${bigint}` */
export function isInt64String(text: string): text is `${bigint}` {
  return parseInt64(text).ok;
}

const NOTATION = /^([+-]?)(?:0x([0-9a-f]+)|([0-9]+)(?:\.([0-9]*))?(?:e\+?([0-9]{1,3}))?)$/i;

/** The int64 an id names in a notation other stacks read (D9: `02`, `+2`, `2.0`, `2e0`, `0x2`, ` 2 `), else `null`. */
export function sameInteger(raw: string): bigint | null {
  const [, sign, hex, whole = '', fraction = '', exponent = '0'] = NOTATION.exec(raw.trim()) ?? [];
  if (sign === undefined) return null;
  const scaled = hex === undefined ? BigInt(whole + fraction) * 10n ** BigInt(exponent) : BigInt(`0x${hex}`);
  const unit = 10n ** BigInt(fraction.length);
  const value = (sign === '-' ? -1n : 1n) * (scaled / unit);
  return scaled % unit === 0n && value >= INT64_MIN && value <= INT64_MAX ? value : null;
}
