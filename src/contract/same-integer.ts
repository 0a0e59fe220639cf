import { INT64_MAX, INT64_MIN } from './int64.js';

/**
 * The int64 an id names in another common notation (D9: `02`, `+2`, `2.0`, `2e0`, `0x2`, ` 2 `, as PostgreSQL,
 * Java, Go, Python and .NET read ids); `null` for another number or none (`7abc`, `7.5`, `' '`).
 */
export function sameInteger(raw: string): bigint | null {
  const text = raw.trim();
  let value: bigint | null = null;
  const hex = /^([+-]?)0x([0-9a-f]+)$/i.exec(text);
  const decimal = /^([+-]?)([0-9]+)(?:\.([0-9]*))?(?:e\+?([0-9]{1,3}))?$/i.exec(text);
  if (hex?.[2] !== undefined) value = (hex[1] === '-' ? -1n : 1n) * BigInt(`0x${hex[2]}`);
  else if (decimal?.[2] !== undefined) {
    const fraction = decimal[3] ?? '';
    const scaled = BigInt(decimal[2] + fraction) * 10n ** BigInt(decimal[4] ?? '0');
    const unit = 10n ** BigInt(fraction.length);
    if (scaled % unit === 0n) value = (decimal[1] === '-' ? -1n : 1n) * (scaled / unit);
  }
  return value !== null && value >= INT64_MIN && value <= INT64_MAX ? value : null;
}
