/** Bytes of a body, on a plain ArrayBuffer (what `Response` accepts in every runtime's types). */
export type Bytes = Uint8Array<ArrayBuffer>;

const encoder = new TextEncoder();

/** The UTF-8 bytes of a text: `utf8('[]')`. */
export function utf8(text: string): Bytes {
  return encoder.encode(text);
}
