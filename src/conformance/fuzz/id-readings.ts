// D19: which orders a drawn value could name on a lenient server: the malformed-id probes' readings, plus
// lenient and NFKC decodings, every run of digits and the absolute value.
import { fitted, lenientReadings } from '../checks/malformed-ids.js';

/** Digit strings longer than this are read only through their 64-bit wrap: any number then is possible anyway. */
const MAX_DIGITS = 400;

/** The texts a server could parse from a path segment as sent: strict, lenient (Latin-1 bytes) and NFKC. */
function decodings(segment: string): string[] {
  const texts = new Set([
    segment,
    segment.replace(/%([0-9a-fA-F]{2})/g, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
  ]);
  try {
    texts.add(decodeURIComponent(segment));
  } catch {
    // A broken escape: a strict decoder refuses it, the lenient readings above stand.
  }
  for (const text of [...texts]) texts.add(text.normalize('NFKC'));
  return [...texts];
}

// Every run of digits (all digits joined, octal and a sign are lenientReadings'). 10^64 is a multiple of
// 2^64, so a long run's last digits keep its 64- and 32-bit wraps.
function digitReadings(text: string): bigint[] {
  return (text.match(/[0-9]+/g) ?? []).map((run) =>
    BigInt(run.length > MAX_DIGITS ? run.slice(-MAX_DIGITS) : run),
  );
}

/** Whether a segment can be sent without naming any of `known` (decimal ids) under any lenient reading. */
export function clearOf(segment: string, known: ReadonlySet<string>): boolean {
  for (const text of decodings(segment)) {
    // A decimal digit other than 0–9, which some parsers (Python's `int`) read as one, cannot be bounded.
    if (/\p{Nd}/u.test(text.replace(/[0-9]/g, ''))) return false;
    for (const value of [...lenientReadings(text), ...digitReadings(text)]) {
      for (const v of [value, value < 0n ? -value : value]) {
        if ([v, ...fitted(v)].some((reading) => known.has(String(reading)))) return false;
      }
    }
  }
  return true;
}
