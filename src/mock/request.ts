/**
 * The request as the mock's core sees it, whatever carried it: node:http on the socket, a WHATWG
 * `Request` in-process, MSW in a page. A leaf module, so the core and its adapters share it without
 * importing each other.
 */

export interface CoreRequest {
  /** Upper-case method. */
  readonly method: string;
  /** The request target as sent: origin-form path and query (`/v1/x?q`), or absolute-form. */
  readonly url: string;
  /**
   * A header's value by lower-case name. Several values of one header come joined with `, `, as WHATWG
   * `Headers` joins them; node:http does the same, except for the few headers it keeps once (RFC 9110
   * singletons such as `Host`), and the socket adapter joins every `Authorization` itself (server.ts).
   */
  header(name: string): string | undefined;
  /** The body, when the request had one. */
  readonly body: Uint8Array | undefined;
}

/**
 * A core request over a WHATWG `Headers` (in-process and MSW).
 *
 * @example fromHeaders('GET', '/v1/store/orders', new Headers({ authorization: 'Bearer k' }), undefined)
 */
export function fromHeaders(
  method: string,
  url: string,
  headers: Headers,
  body: Uint8Array | undefined,
): CoreRequest {
  return { method, url, header: (name) => headers.get(name) ?? undefined, body };
}
