/**
 * `petstore-contract-toolkit/client`: the typed client, and the API's types as it hands them over.
 * Runs wherever `fetch` does (Node, browsers, workers): it reads no file.
 *
 * @example
 * import { createPetstoreClient } from 'petstore-contract-toolkit/client';
 * const client = createPetstoreClient({ baseUrl: 'http://127.0.0.1:4010/v1', apiKey: 'petstore-dev-key' });
 * const { data, error } = await client.GET('/store/orders');
 */
import type { components, paths } from '../generated/openapi.js';

export { createPetstoreClient, type PetstoreClient, type PetstoreClientOptions } from './client.js';

/** An int64 as the client hands it over and takes it back: exact decimal digits (D17). */
export type Int64String = `${bigint}`;
/** An order; its `id` and `petId` are {@link Int64String}s. */
export type Order = components['schemas']['Order'];
/** The body of every error answer (§7). */
export type ApiError = components['schemas']['Error'];
export type { paths };
