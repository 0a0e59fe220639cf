/** What Ajv validates for an exact value (D8): in-range bigints clamped inside int64, the rest ±2^64. */
import { INT64_MAX, INT64_MIN } from './int64.js';
import type { ExactJson } from './lossless-json.js';

const OUT_OF_INT64 = 2 ** 64;

/** @example validationView(2n ** 63n) // 18446744073709551616 (2^64: not an int64) */
export function validationView(value: ExactJson): unknown {
  if (typeof value === 'bigint') {
    if (value > INT64_MAX) return OUT_OF_INT64;
    if (value < INT64_MIN) return -OUT_OF_INT64;
    return Math.max(Math.min(Number(value), 2 ** 63 - 1024), -(2 ** 63));
  }
  if (Array.isArray(value)) return value.map(validationView);
  if (typeof value !== 'object' || value === null) return value;
  const view: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const item = validationView(value[key] as ExactJson);
    // A plain assignment to `__proto__` would set the prototype, not a member.
    if (key === '__proto__') Object.defineProperty(view, key, { value: item, enumerable: true });
    else view[key] = item;
  }
  return view;
}
