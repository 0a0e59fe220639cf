// D9's malformed order ids, built so that every number a lenient parser could read from one is unused (D19);
// a destructive run aims them at a named pending order, so that a lenient parser cancels it and is named.

export interface MalformedId {
  name: string;
  /** The id as the docs show it, `{id…}` standing for the base where it depends on one. */
  shown: string;
  about: string;
  /** The id to send for a base id; ids that ignore the base take an offset instead. */
  build(base: bigint): string;
}

/** Whether an id depends on its base: only those can aim at a named pending order. */
export const usesBase = (row: MalformedId): boolean => row.shown.includes('{id');

/** A value as an int64 and an int32 parser keep it: wrapped, or clamped to the type's range. */
export function fitted(v: bigint): bigint[] {
  return [64, 32].flatMap((bits) => {
    const max = 2n ** BigInt(bits - 1) - 1n;
    return [BigInt.asIntN(bits, v), v > max ? max : v < -max - 1n ? -max - 1n : v];
  });
}

// D19: atoi's prefix (0 for none), the digits alone, octal, Number() rounded each way, BigInt(), each
// wrapped and clamped to 64 and 32 bits: every int64 a lenient parser could read from `raw` (`12abc` → 12).
export function lenientReadings(raw: string): bigint[] {
  const values = new Set<bigint>();
  const trimmed = raw.trim();
  const prefix = /^[+-]?[0-9]+/.exec(trimmed)?.[0];
  values.add(prefix === undefined ? 0n : BigInt(prefix));
  const digits = raw.replace(/[^0-9]/g, '');
  if (digits !== '') values.add(BigInt(trimmed.startsWith('-') ? `-${digits}` : digits));
  const octal = /^([+-]?)0([0-7]+)/.exec(trimmed);
  if (octal?.[2] !== undefined) {
    const value = BigInt(`0o${octal[2]}`);
    values.add(octal[1] === '-' ? -value : value);
  }
  const parsedInt = Number.parseInt(raw, 10);
  if (Number.isFinite(parsedInt)) values.add(BigInt(parsedInt));
  const number = Number(raw);
  if (Number.isFinite(number))
    for (const v of [Math.floor(number), Math.ceil(number), Math.round(number)]) values.add(BigInt(v));
  try {
    values.add(BigInt(trimmed));
  } catch {
    // Not a BigInt literal: the other readings stand.
  }
  return [...new Set([...values].flatMap(fitted))];
}

export const MALFORMED_IDS: readonly MalformedId[] = [
  { name: 'letters', shown: 'abc', about: 'not a number', build: () => 'abc' },
  {
    name: 'decimal',
    shown: '{id}.5',
    about: 'not an integer (parseInt reads {id})',
    build: (base) => `${base}.5`,
  },
  {
    name: 'int64-overflow',
    shown: '9223372036854775808',
    about: '2^63 (or just above), past the largest int64',
    build: (offset) => String(2n ** 63n + offset),
  },
  {
    name: 'int64-underflow',
    shown: '-9223372036854775809',
    about: 'one (or more) below the smallest int64',
    build: (offset) => String(-(2n ** 63n) - 1n - offset),
  },
  {
    name: 'uint64-wrap',
    shown: '18446744073709551616 + {id}',
    about: '2^64 + {id}, which wraps to {id} in 64-bit arithmetic',
    build: (base) => String(2n ** 64n + base),
  },
  {
    name: 'exponent',
    shown: '{id}e0',
    about: 'exponent notation (Number reads {id})',
    build: (base) => `${base}e0`,
  },
  {
    name: 'hex',
    shown: '0x{id in hex}',
    about: 'hexadecimal (BigInt and Number read {id})',
    build: (base) => `0x${base.toString(16).toUpperCase()}`,
  },
  {
    name: 'trailing-letters',
    shown: '{id}abc',
    about: 'digits then letters (parseInt reads {id})',
    build: (base) => `${base}abc`,
  },
];

/** Malformed spellings of a named shipped id (D19): a 409 shows the server read it as that order. */
export const SHIPPED_SPELLINGS: ReadonlyArray<{ name: string; build(id: bigint): string }> = [
  { name: 'a suffix', build: (id) => `${id}abc` },
  { name: 'a fraction', build: (id) => `${id}.0` },
  { name: 'a leading zero', build: (id) => `0${id}` },
  { name: 'a leading space', build: (id) => ` ${id}` },
  { name: 'hex', build: (id) => `0x${id.toString(16)}` },
];

/** The orders other than `except` (not `unused`: listed or named) that a lenient reading of `raw` names. */
export function namedReadings(raw: string, unused: (id: bigint) => boolean, except?: bigint): string[] {
  return [...new Set(lenientReadings(raw).filter((r) => r !== except && !unused(r)))].map(String);
}

// The id to send for a row, aimed at the last of `pending` it can name alone (`target`), else at no order;
// when every candidate could name a listed order, the orders the first one names.
export function aimMalformed(
  row: MalformedId,
  unused: (id: bigint) => boolean,
  pending: readonly bigint[],
): { raw: string; target: string | null } | { blocking: string[] } {
  // A base above 2^53 would not keep every reading exact: Number() of it rounds to a neighbour.
  const bases = usesBase(row) ? [...pending].reverse().filter((b) => b >= 0n && b < 2n ** 53n) : [];
  for (const base of bases) {
    const raw = row.build(base);
    const readings = lenientReadings(raw);
    if (readings.includes(base) && readings.every((r) => r === base || unused(r))) {
      return { raw, target: String(base) };
    }
  }
  const start = usesBase(row) ? 424_242_424n : 0n;
  for (let i = 0n; i < 64n; i++) {
    const raw = row.build(start + i);
    if (lenientReadings(raw).every(unused)) return { raw, target: null };
  }
  return { blocking: namedReadings(row.build(start), unused) };
}
