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

/** A value that is not an integer where an int64 belongs breaks the contract: it is left as the server sent it. */
function convert(value: ExactJson, location: Int64Location): ExactJson {
  if (location === true) return typeof value === 'bigint' || Number.isInteger(value) ? String(value) : value;
  const { items, properties } = location;
  if (Array.isArray(value)) return items ? value.map((item) => convert(item, items)) : value;
  if (value === null || typeof value !== 'object' || !properties) return value;
  const converted = { ...value };
  for (const [name, inner] of Object.entries(properties)) {
    const member = value[name];
    if (member !== undefined) converted[name] = convert(member, inner);
  }
  return converted;
}

/** JSON text with the int64 values at `location` as decimal strings; text that is not JSON comes back as is. */
export function exactInt64Text(text: string, location: Int64Location): string {
  const parsed = parseExactJson(text);
  return parsed.ok ? stringifyExactJson(convert(parsed.value, location)) : text;
}

const exactInt64: Middleware = {
  async onResponse({ request, response, schemaPath }) {
    const location = INT64_LOCATIONS[`${request.method} ${schemaPath}`]?.[String(response.status)];
    if (!location) return undefined;
    const headers = new Headers(response.headers);
    headers.delete('content-length'); // The rewritten body has another length.
    const text = exactInt64Text(await response.text(), location);
    return Object.defineProperties(
      new Response(text, { status: response.status, statusText: response.statusText, headers }),
      { url: { value: response.url }, redirected: { value: response.redirected } },
    );
  },
};

/** Path parameters into the URL; a `number` beyond 2^53 has lost its digits, so it is refused, not sent. */
function serializePath(pathname: string, params: Record<string, unknown>): string {
  return pathname.replace(/\{([^{}]+)\}/g, (match, name: string) => {
    const value = params[name];
    if (value === undefined || value === null) return match;
    if (typeof value === 'number' && !Number.isSafeInteger(value))
      throw new RangeError(
        `Path parameter ${name} is the number ${value}, which cannot hold an int64 exactly; pass the id as a decimal string (as the client lists it) or a bigint.`,
      );
    return encodeURIComponent(String(value));
  });
}

/** @example createPetstoreClient({ baseUrl: 'http://127.0.0.1:4010/v1', apiKey }).GET('/store/orders') // ids as strings */
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
