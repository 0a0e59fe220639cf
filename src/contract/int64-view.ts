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
 * The value as Ajv can check it: exact bigints become doubles that keep the int64 verdict. Values without
 * a bigint come back as they are (Ajv only reads them), so checking a 100,000-order fixture does not copy it.
 *
 * @example validationView(2n ** 63n) // 18446744073709551616 (2^64: not an int64)
 */
export function validationView(value: ExactJson): unknown {
  if (typeof value === 'bigint') {
    if (value > INT64_MAX) return OUT_OF_INT64;
    if (value < INT64_MIN) return -OUT_OF_INT64;
    return Math.max(Math.min(Number(value), LARGEST_DOUBLE_BELOW_2_63), -(2 ** 63));
  }
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item = value[i] as ExactJson;
      const view = validationView(item);
      if (view !== item) out ??= value.slice(0, i);
      out?.push(view);
    }
    return out ?? value;
  }
  if (typeof value === 'object' && value !== null) {
    let out: Record<string, unknown> | undefined;
    const entries = Object.entries(value);
    for (const [i, [key, item]] of entries.entries()) {
      const view = validationView(item);
      if (view !== item && out === undefined) {
        out = {};
        for (const [before, kept] of entries.slice(0, i)) define(out, before, kept);
      }
      if (out) define(out, key, view);
    }
    return out ?? value;
  }
  return value;
}

/** An own property, even for the key `__proto__` (a plain assignment would change the prototype). */
function define(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Whether a double of the view is an int64 (the `int64` format of the Ajv the toolkit uses). */
export function isInt64View(value: number): boolean {
  return Number.isInteger(value) && value >= -(2 ** 63) && value < 2 ** 63;
}
