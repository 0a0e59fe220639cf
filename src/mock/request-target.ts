/**
 * The one reading of a request target, shared by every entry point (socket, `handle(Request)`, MSW), so
 * the same request gets the same answer everywhere. The path is the WHATWG URL reading of the target:
 * dot segments (`/./`, `/../`, `%2e`) are resolved and `\` is a separator, as a browser would send it. A
 * `Request` has been through that reading already; a raw socket target goes through it here.
 */

const BASE = 'http://mock.invalid';
/**
 * Characters that leave a path unchanged under the URL parser. A target made only of them, with no dot
 * segment, is its own pathname (the fast path: every ordinary request); anything else goes through URL.
 */
const PLAIN_PATH = /^\/[A-Za-z0-9\-._~!$&'()*+,;=:@/%]*$/;
const DOT_SEGMENT = /\/\.|%2e/i;

/**
 * The path of a request target, without query or fragment.
 *
 * @example requestPath('/v1/store/./orders?x=1') // '/v1/store/orders'
 * @example requestPath('http://host/v1/store/orders') // '/v1/store/orders'
 */
export function requestPath(target: string): string {
  let end = target.length;
  const query = target.indexOf('?');
  if (query !== -1) end = query;
  const hash = target.indexOf('#');
  if (hash !== -1 && hash < end) end = hash;
  const path = target.slice(0, end);
  if (PLAIN_PATH.test(path) && !DOT_SEGMENT.test(path)) return path;
  try {
    // Origin-form is appended to a base rather than resolved against it, so `//x` stays a path and
    // never names a host.
    return new URL(path.charCodeAt(0) === 47 /* / */ ? BASE + path : path).pathname;
  } catch {
    return path;
  }
}
