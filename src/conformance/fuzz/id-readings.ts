// D19: which orders a drawn value could name on a lenient server: the malformed-id probes' readings, plus
// lenient and NFKC decodings, every run of digits and the absolute value.
import { lenientReadings } from '../checks/malformed-ids.js';

/** Digit strings longer than this are read only through their 64-bit wrap: any number then is possible anyway. */
const MAX_DIGITS = 400;

/** `%XX` escapes decoded byte by byte as Latin-1, invalid ones kept: what a lenient decoder sees. */
function lenientPercentDecode(text: string): string {
  return text.replace(/%([0-9a-fA-F]{2})/g, (_m, hex: string) =>
    String.fromCharCode(Number.parseInt(hex, 16)),
  );
}

/** The texts a server could parse from a path segment as sent. */
export function decodings(segment: string): string[] {
  const texts = new Set([segment, lenientPercentDecode(segment)]);
  try {
    texts.add(decodeURIComponent(segment));
  } catch {
    // A broken escape: a strict decoder refuses it, the lenient readings above stand.
  }
  for (const text of [...texts]) texts.add(text.normalize('NFKC'));
  return [...texts];
}

/** Whether a text holds a decimal digit other than 0–9, which some parsers (Python's `int`) read as one. */
function hasForeignDigit(text: string): boolean {
  return /\p{Nd}/u.test(text.replace(/[0-9]/g, ''));
}

function digitReadings(text: string): bigint[] {
  const values: bigint[] = [];
  const runs = text.match(/[0-9]+/g) ?? [];
  const all = runs.join('');
  for (const digits of [...runs, all]) {
    if (digits === '') continue;
    values.push(BigInt(digits.length > MAX_DIGITS ? digits.slice(-MAX_DIGITS) : digits));
  }
  const octal = /^\s*[+-]?0([0-7]+)/.exec(text)?.[1];
  if (octal !== undefined) values.push(BigInt(`0o${octal}`));
  return values;
}

/** Every id a lenient server could read from a segment; `null` when none can be bounded (a foreign digit). */
export function possibleReadings(segment: string): Set<bigint> | null {
  const readings = new Set<bigint>();
  for (const text of decodings(segment)) {
    if (hasForeignDigit(text)) return null;
    for (const value of [...lenientReadings(text), ...digitReadings(text)]) {
      for (const v of [value, value < 0n ? -value : value]) {
        readings.add(v);
        // What an int32 or int64 parser makes of it: wrapped, or clamped to the type's range.
        for (const bits of [32n, 64n]) {
          const max = 2n ** (bits - 1n) - 1n;
          readings.add(BigInt.asIntN(Number(bits), v)).add(v > max ? max : v < -max - 1n ? -max - 1n : v);
        }
      }
    }
  }
  return readings;
}

/** Whether a segment can be sent without naming any of `known` (decimal ids) under any lenient reading. */
export function clearOf(segment: string, known: ReadonlySet<string>): boolean {
  const readings = possibleReadings(segment);
  if (readings === null) return false;
  for (const reading of readings) if (known.has(String(reading))) return false;
  return true;
}
