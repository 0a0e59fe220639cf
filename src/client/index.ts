/** `petstore-contract-toolkit/client`: the typed client and the API's types. Runs wherever `fetch` does. */
import type { components, paths } from '../generated/openapi.js';

export { INT64_MAX, INT64_MIN, isInt64String, parseInt64 } from '../contract/int64.js';
export { createPetstoreClient, type PetstoreClient, type PetstoreClientOptions } from './client.js';

/** An int64 as the client hands it over and takes it back: exact decimal digits (D17). */
export type Int64String = `${bigint}`;
/** An order; its `id` and `petId` are {@link Int64String}s. */
export type Order = components['schemas']['Order'];
/** The body of every error answer (§7). */
export type ApiError = components['schemas']['Error'];
export type { paths };
