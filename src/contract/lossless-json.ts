/**
 * JSON parsing and serialisation that keep int64 values exact (decision D8).
 *
 * `JSON.parse` rounds every integer above 2^53 to the nearest double, so an order id of
 * 9007199254740993 would come back as 9007199254740992 and an id of 2^64 would look like a valid
 * int64. Here integers that a double cannot hold exactly become `bigint`; everything else stays a
 * plain JSON value.
 */
import { isSafeNumber, parse as parseLosslessJson, stringify as stringifyLosslessJson } from 'lossless-json';
import type { Result } from '../result.js';

/** A JSON value in which integers outside ±(2^53 − 1) are exact `bigint`s. */
export type ExactJson =
  | null
  | boolean
  | number
  | bigint
  | string
  | ExactJson[]
  | { [key: string]: ExactJson };

/** A JSON integer literal (JSON allows `-0`; path parameters use the stricter grammar of `int64.ts`). */
const INTEGER_LITERAL = /^-?(0|[1-9][0-9]*)$/;

function exactNumber(text: string): number | bigint {
  if (INTEGER_LITERAL.test(text)) {
    const value = Number(text);
    return Number.isSafeInteger(value) ? value : BigInt(text);
  }
  // Non-integer literals (1.5, 1e3) are not ids; a double is the JSON Schema reading of them.
  return isSafeNumber(text, { approx: true }) ? Number(text) : Number.parseFloat(text);
}

/**
 * Parses JSON text, keeping integers above 2^53 exact.
 *
 * @example parseExactJson('{"id":9007199254740993}') // { ok: true, value: { id: 9007199254740993n } }
 */
export function parseExactJson(text: string): Result<ExactJson, string> {
  try {
    return { ok: true, value: parseLosslessJson(text, null, exactNumber) as ExactJson };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * Serialises a value to JSON, writing `bigint`s as exact integer literals.
 *
 * @example stringifyExactJson({ id: 9007199254740993n }) // '{"id":9007199254740993}'
 */
export function stringifyExactJson(value: unknown): string {
  return stringifyLosslessJson(value) ?? 'null';
}
