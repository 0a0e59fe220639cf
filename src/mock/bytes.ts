/**
 * Body bytes, web-standard: what the core caches and answers with. A leaf module, so the stores and the
 * response helpers share the type without importing each other.
 */

/** Bytes of a body, on a plain ArrayBuffer (what `Response` accepts in every runtime's types). */
export type Bytes = Uint8Array<ArrayBuffer>;

const encoder = new TextEncoder();

/**
 * The UTF-8 bytes of a text.
 *
 * @example utf8('[]') // Uint8Array [91, 93]
 */
export function utf8(text: string): Bytes {
  return encoder.encode(text);
}
