/** The request as the core sees it, whatever carried it (socket, in-process `Request`, MSW). */
export interface CoreRequest {
  /** Upper-case method. */
  readonly method: string;
  /** The request target as sent: origin-form (`/v1/x?q`) or absolute-form. */
  readonly url: string;
  /** A header by lower-case name; repeated values joined with `, `, as WHATWG `Headers` joins them. */
  header(name: string): string | undefined;
  readonly body: Uint8Array | undefined;
}

/** A core request over WHATWG `Headers` (in-process and MSW). */
export function fromHeaders(
  method: string,
  url: string,
  headers: Headers,
  body: Uint8Array | undefined,
): CoreRequest {
  return { method, url, header: (name) => headers.get(name) ?? undefined, body };
}
