/** The typed client: openapi-fetch over the generated `paths`, int64 body values as exact decimal strings (D17). */
import createClient, { type Client, type Middleware } from 'openapi-fetch';
import { type ExactJson, parseExactJson, stringifyExactJson } from '../contract/lossless-json.js';
import { INT64_LOCATIONS, type Int64Location } from '../generated/int64-locations.js';
import type { paths } from '../generated/openapi.js';

/** The client: openapi-fetch's `GET`, `DELETE`, … with `{ data, error, response }` results. */
export type PetstoreClient = Client<paths, 'application/json'>;

export interface PetstoreClientOptions {
  /** The API's base URL, ending in `/v1`: `http://127.0.0.1:4010/v1`. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <apiKey>` on every request. */
  apiKey: string;
  /** A `fetch` to use instead of `globalThis.fetch`, which is otherwise looked up per request (MSW, spies). */
  fetch?: (request: Request) => Promise<Response>;
}

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

/** Hands openapi-fetch each body the document gives int64 values with those values as decimal strings. */
const exactInt64: Middleware = {
  async onResponse({ request, response, schemaPath }) {
    const location = INT64_LOCATIONS[`${request.method} ${schemaPath}`]?.[String(response.status)];
    if (!location) return undefined;
    const headers = new Headers(response.headers);
    headers.delete('content-length'); // The rewritten body has another length.
    const { status, statusText, url, redirected } = response;
    const exact = new Response(exactInt64Text(await response.text(), location), {
      status,
      statusText,
      headers,
    });
    Object.defineProperties(exact, { url: { value: url }, redirected: { value: redirected } });
    return exact;
  },
};

/** Path parameters into the URL; a `number` beyond 2^53 has lost its digits, so it is refused, not sent. */
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
 * Creates a typed client; int64 values (`id`, `petId`) come back as decimal strings, to pass straight back.
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
    // Bound late: MSW patches `globalThis.fetch` after a module-level client is made (stack-notes).
    fetch: options.fetch ?? ((request: Request) => globalThis.fetch(request)),
  });
  client.use(exactInt64);
  return client;
}
