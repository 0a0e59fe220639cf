/**
 * The view of an exact JSON value that Ajv validates. Ajv sees doubles, which cannot tell 2^63 − 1 (the
 * largest int64) from 2^63 (one past it), so exact in-range bigints are clamped to the nearest double
 * inside the range and out-of-range ones become ±2^64, which no int64 check accepts. The caller keeps
 * the exact value; only the verdict comes from the view.
 */
import { INT64_MAX, INT64_MIN } from './int64.js';
import type { ExactJson } from './lossless-json.js';

const LARGEST_DOUBLE_BELOW_2_63 = 2 ** 63 - 1024;
const OUT_OF_INT64 = 2 ** 64;

/**
 * The value as Ajv can check it: exact bigints become doubles that keep the int64 verdict.
 *
 * @example validationView(2n ** 63n) // 18446744073709551616 (2^64: not an int64)
 */
export function validationView(value: ExactJson): unknown {
  if (typeof value === 'bigint') {
    if (value > INT64_MAX) return OUT_OF_INT64;
    if (value < INT64_MIN) return -OUT_OF_INT64;
    return Math.max(Math.min(Number(value), LARGEST_DOUBLE_BELOW_2_63), -(2 ** 63));
  }
  if (Array.isArray(value)) return value.map(validationView);
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = validationView(item);
    return out;
  }
  return value;
}

/** Whether a double of the view is an int64 (the `int64` format of the Ajv the toolkit uses). */
export function isInt64View(value: number): boolean {
  return Number.isInteger(value) && value >= -(2 ** 63) && value < 2 ** 63;
}
