// One reading of a request target for every entry point: the WHATWG URL path, as a browser would send it.
/** A target made only of these, with no dot segment, is its own pathname: no URL parse on the common path. */
const PLAIN_PATH = /^\/[A-Za-z0-9\-._~!$&'()*+,;=:@/%]*$/;
const DOT_SEGMENT = /\/\.|%2e/i;

/** The path of a request target, without query or fragment: `/v1/store/./orders?x=1` is `/v1/store/orders`. */
export function requestPath(target: string): string {
  const query = target.search(/[?#]/);
  const path = query === -1 ? target : target.slice(0, query);
  if (PLAIN_PATH.test(path) && !DOT_SEGMENT.test(path)) return path;
  try {
    // Appended to a base, not resolved against it, so `//x` stays a path and never names a host.
    return new URL(path.startsWith('/') ? `http://mock.invalid${path}` : path).pathname;
  } catch {
    return path;
  }
}
