/**
 * The typed client of the Pet Store Orders API: openapi-fetch over the generated `paths`, with the int64
 * values of every body handed over as exact decimal strings (D17) and int64 path parameters sent exactly.
 */
import createClient, { type Client, type Middleware } from 'openapi-fetch';
import { INT64_LOCATIONS } from '../generated/int64-locations.js';
import type { paths } from '../generated/openapi.js';
import { exactInt64Text } from './exact-int64.js';

/** The client: openapi-fetch's `GET`, `DELETE`, … with `{ data, error, response }` results. */
export type PetstoreClient = Client<paths, 'application/json'>;

export interface PetstoreClientOptions {
  /** The API's base URL, ending in `/v1`: `http://127.0.0.1:4010/v1`. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <apiKey>` on every request. */
  apiKey: string;
  /**
   * A `fetch` to use instead of the global one (a test's, a proxy's, `mock.handle`). Without it, each
   * request calls the `globalThis.fetch` of its own moment, so MSW's `server.listen()` and test spies
   * reach a client made before them.
   */
  fetch?: (request: Request) => Promise<Response>;
}

/**
 * Reads each JSON body whose operation and status the document gives int64 values, and hands openapi-fetch
 * the same body with those values as decimal strings. Status, status text and headers are kept.
 */
const exactInt64: Middleware = {
  async onResponse({ request, response, schemaPath }) {
    const location = INT64_LOCATIONS[`${request.method} ${schemaPath}`]?.[String(response.status)];
    if (!location) return undefined;
    const headers = new Headers(response.headers);
    headers.delete('content-length'); // The rewritten body has another length.
    const exact = new Response(exactInt64Text(await response.text(), location), {
      status: response.status,
      statusText: response.statusText,
      headers,
    });
    Object.defineProperties(exact, {
      url: { value: response.url },
      redirected: { value: response.redirected },
    });
    return exact;
  },
};

/**
 * Puts path parameters into the URL. A `number` beyond 2^53 has already lost its digits, so it is
 * refused rather than sent as another order's id; the types ask for a decimal string or a bigint.
 */
function serializePath(pathname: string, params: Record<string, unknown>): string {
  return pathname.replace(/\{([^{}]+)\}/g, (match, name: string) => {
    const value = params[name];
    if (value === undefined || value === null) return match;
    if (typeof value === 'number' && !Number.isSafeInteger(value)) {
      throw new RangeError(
        `Path parameter ${name} is the number ${value}, which cannot hold an int64 exactly; pass the id as a decimal string (as the client lists it) or a bigint.`,
      );
    }
    return encodeURIComponent(String(value));
  });
}

/**
 * Creates a typed client. int64 values (`id`, `petId`) come back as decimal strings such as
 * `"9007199254740993"`; pass them straight back as path parameters.
 *
 * @example
 * const client = createPetstoreClient({ baseUrl: 'http://127.0.0.1:4010/v1', apiKey: 'petstore-dev-key' });
 * const { data: orders = [] } = await client.GET('/store/orders');
 * const { error } = await client.DELETE('/store/orders/{orderId}', { params: { path: { orderId: orders[0]?.id ?? '1' } } });
 */
export function createPetstoreClient(options: PetstoreClientOptions): PetstoreClient {
  const client = createClient<paths, 'application/json'>({
    baseUrl: options.baseUrl,
    headers: { Authorization: `Bearer ${options.apiKey}` },
    pathSerializer: serializePath,
    // openapi-fetch keeps the fetch it is given, by default the global one of the moment the client is
    // made: a client made at module level would then skip MSW, which patches the global one later.
    fetch: options.fetch ?? ((request: Request) => globalThis.fetch(request)),
  });
  client.use(exactInt64);
  return client;
}
