/** A body's int64 values as exact decimal strings (D17), at the places the document gives (int64-locations). */
import { type ExactJson, parseExactJson, stringifyExactJson } from '../contract/lossless-json.js';
import type { Int64Location } from '../generated/int64-locations.js';

function convert(value: ExactJson, location: Int64Location): ExactJson {
  if (location === true) {
    const isInteger = typeof value === 'bigint' || (typeof value === 'number' && Number.isInteger(value));
    // A value that is not an integer breaks the contract; it is left as the server sent it.
    return isInteger ? String(value) : value;
  }
  if (Array.isArray(value)) {
    const items = location.items;
    return items ? value.map((item) => convert(item, items)) : value;
  }
  if (value !== null && typeof value === 'object' && location.properties) {
    const converted: { [key: string]: ExactJson } = { ...value };
    for (const [name, inner] of Object.entries(location.properties)) {
      const member = value[name];
      if (member !== undefined) converted[name] = convert(member, inner);
    }
    return converted;
  }
  return value;
}

/**
 * JSON text with the int64 values at `location` as decimal strings; text that is not JSON comes back as is.
 *
 * @example exactInt64Text('[{"id":9007199254740993}]', { items: { properties: { id: true } } }) // '[{"id":"9007199254740993"}]'
 */
export function exactInt64Text(text: string, location: Int64Location): string {
  const parsed = parseExactJson(text);
  return parsed.ok ? stringifyExactJson(convert(parsed.value, location)) : text;
}
