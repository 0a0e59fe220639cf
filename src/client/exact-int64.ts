/**
 * Turns the int64 values of a JSON body into exact decimal strings (D17), reading the body losslessly so
 * that 9007199254740993 stays 9007199254740993. Which values are int64 comes from the document
 * (`src/generated/int64-locations.ts`), so an id is a string whatever its size, never a number for small
 * ids and a string for big ones.
 */

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
 * Rewrites JSON text so that the int64 values at `location` are decimal strings; text that is not JSON
 * comes back unchanged, for the caller's own JSON parsing to report.
 *
 * @example exactInt64Text('[{"id":9007199254740993}]', { items: { properties: { id: true } } }) // '[{"id":"9007199254740993"}]'
 */
export function exactInt64Text(text: string, location: Int64Location): string {
  const parsed = parseExactJson(text);
  return parsed.ok ? stringifyExactJson(convert(parsed.value, location)) : text;
}
