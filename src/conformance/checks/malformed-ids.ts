/**
 * D9's malformed order ids, built so that every number a lenient parser could read from one is unused
 * (D19); a destructive run aims them at a named pending order, so a lenient parser cancels it and is named.
 */

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const SAFE = BigInt(Number.MAX_SAFE_INTEGER);

export interface MalformedId {
  name: string;
  /** The id as the docs show it, `{id}` standing for the base. */
  shown: string;
  about: string;
  /** The id to send for a base id; ids that ignore the base take an offset instead. */
  build(base: bigint): string;
  /** Whether the id depends on the base (only those can aim at a named pending order). */
  usesBase: boolean;
}

const clamp = (v: bigint): bigint => (v > INT64_MAX ? INT64_MAX : v < INT64_MIN ? INT64_MIN : v);

const INT32_MIN = -(2n ** 31n);
const INT32_MAX = 2n ** 31n - 1n;

/**
 * Every int64 a lenient parser could read from `raw` (D19): atoi's prefix (0 for none), the digits alone,
 * octal, Number() rounded each way, BigInt(), each wrapped and clamped to 64 and 32 bits: `12abc` → 12.
 */
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
  if (Number.isFinite(number)) {
    for (const v of [Math.floor(number), Math.ceil(number), Math.round(number)]) values.add(BigInt(v));
  }
  try {
    values.add(BigInt(trimmed));
  } catch {
    // Not a BigInt literal: the other readings stand.
  }
  const readings = new Set<bigint>();
  for (const v of values) {
    readings.add(BigInt.asIntN(64, v));
    readings.add(clamp(v));
    readings.add(BigInt.asIntN(32, v));
    readings.add(v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : v);
  }
  return [...readings];
}

/** A base at or below 2^53 keeps every reading exact: Number() of a bigger one rounds to a neighbour. */
export function isSafeBase(id: bigint): boolean {
  return id >= 0n && id <= SAFE;
}

export const MALFORMED_IDS: readonly MalformedId[] = [
  { name: 'letters', shown: 'abc', about: 'not a number', build: () => 'abc', usesBase: false },
  {
    name: 'decimal',
    shown: '{id}.5',
    about: 'not an integer (parseInt reads {id})',
    build: (base) => `${base}.5`,
    usesBase: true,
  },
  {
    name: 'int64-overflow',
    shown: '9223372036854775808',
    about: '2^63 (or just above), past the largest int64',
    build: (offset) => String(2n ** 63n + offset),
    usesBase: false,
  },
  {
    name: 'int64-underflow',
    shown: '-9223372036854775809',
    about: 'one (or more) below the smallest int64',
    build: (offset) => String(INT64_MIN - 1n - offset),
    usesBase: false,
  },
  {
    name: 'uint64-wrap',
    shown: '18446744073709551616 + {id}',
    about: '2^64 + {id}, which wraps to {id} in 64-bit arithmetic',
    build: (base) => String(2n ** 64n + base),
    usesBase: true,
  },
  {
    name: 'exponent',
    shown: '{id}e0',
    about: 'exponent notation (Number reads {id})',
    build: (base) => `${base}e0`,
    usesBase: true,
  },
  {
    name: 'hex',
    shown: '0x{id in hex}',
    about: 'hexadecimal (BigInt and Number read {id})',
    build: (base) => `0x${base.toString(16).toUpperCase()}`,
    usesBase: true,
  },
  {
    name: 'trailing-letters',
    shown: '{id}abc',
    about: 'digits then letters (parseInt reads {id})',
    build: (base) => `${base}abc`,
    usesBase: true,
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

/** The listed or named orders other than `shipped` that a lenient reading of `raw` names (`020` → 16). */
export function otherReadings(raw: string, shipped: bigint, unused: (id: bigint) => boolean): string[] {
  return [
    ...new Set(
      lenientReadings(raw)
        .filter((r) => r !== shipped && !unused(r))
        .map(String),
    ),
  ];
}

export interface Aim {
  raw: string;
  /** The named pending order a lenient parser would cancel, `null` when every reading is unused. */
  target: string | null;
}

/** The id to send for one row, aimed at one of `pending` where it can be; `null` if none reads only as unused. */
export function aimMalformed(
  row: MalformedId,
  unused: (id: bigint) => boolean,
  pending: readonly bigint[],
  firstUnused: bigint = 424_242_424n,
): Aim | null {
  if (row.usesBase) {
    for (const base of [...pending].reverse().filter(isSafeBase)) {
      const raw = row.build(base);
      const readings = lenientReadings(raw);
      if (readings.includes(base) && readings.every((r) => r === base || unused(r))) {
        return { raw, target: String(base) };
      }
    }
  }
  const start = row.usesBase ? firstUnused : 0n;
  for (let i = 0n; i < 64n; i++) {
    const raw = row.build(start + i);
    if (lenientReadings(raw).every(unused)) return { raw, target: null };
  }
  return null;
}

/** The listed orders that lenient readings of a row's first candidate name, for the skip message. */
export function blockingReadings(
  row: MalformedId,
  unused: (id: bigint) => boolean,
  firstUnused = 424_242_424n,
): string[] {
  const raw = row.build(row.usesBase ? firstUnused : 0n);
  return [
    ...new Set(
      lenientReadings(raw)
        .filter((r) => !unused(r))
        .map(String),
    ),
  ];
}
