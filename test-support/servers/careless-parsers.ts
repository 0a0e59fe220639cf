/**
 * Order id parsers only a generated id reaches: each reads a decoded path segment its own careless way.
 * The fuzz phase's ids must never land on a listed order through any of them (D19).
 */
import { seedOrders, type TargetOrder } from './reference-server.js';

export interface CarelessParser {
  label: string;
  read(raw: string): bigint | null;
}

const digitsOf = (text: string): bigint => {
  const digits = text.replace(/[^0-9]/g, '');
  return digits === '' ? 0n : BigInt.asIntN(64, BigInt(digits.slice(-30)));
};

export const CARELESS_PARSERS: readonly CarelessParser[] = [
  { label: 'a parser that strips every non-digit (a1b2 → 12, abc → 0)', read: digitsOf },
  {
    label: 'a parser that reads Unicode digits and NFKC forms (Python int)',
    read(raw) {
      // Every \p{Nd} block starts at a code point ending in 0 (hex), except a few; close enough for bait.
      const text = raw
        .normalize('NFKC')
        .replace(/\p{Nd}/gu, (d) => String(((d.codePointAt(0) ?? 48) % 16) % 10));
      return /^\s*[+-]?[0-9]+\s*$/.test(text) ? BigInt(text.trim()) : null;
    },
  },
  {
    label: 'a parser that wraps to 32 bits (2^32 + 3 → 3)',
    read(raw) {
      const prefix = /^[+-]?[0-9]+/.exec(raw)?.[0];
      return prefix === undefined ? null : BigInt.asIntN(32, BigInt(prefix));
    },
  },
  {
    label: "C's strtol with base 0 (010 → 8, 0x1A → 26, abc → 0)",
    read(raw) {
      const match = /^\s*([+-]?)(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)/.exec(raw);
      const body = match?.[2];
      if (body === undefined) return 0n;
      const value = /^0[xX]/.test(body)
        ? BigInt(body)
        : body.startsWith('0') && body.length > 1
          ? BigInt(`0o${body.slice(1)}`)
          : BigInt(body);
      return match?.[1] === '-' ? -value : value;
    },
  },
];

/** Orders where the fixed malformed ids of old runs landed: 1.5 → 1, 12abc → 12, 0x1A → 26, 1e3 → 1000. */
export function baitedOrders(): TargetOrder[] {
  const bait = (id: bigint): TargetOrder => ({ id, petId: 10n, quantity: 1, status: 'pending' });
  return [...seedOrders(), bait(12n), bait(26n), bait(1000n), bait(424_242_424n), bait(2n ** 63n - 1n)];
}
