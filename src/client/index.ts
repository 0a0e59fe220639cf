/** `petstore-contract-toolkit/client`: the typed client and the API's types. Runs wherever `fetch` does. */
export { INT64_MAX, INT64_MIN, isInt64String, parseInt64 } from '../contract/int64.js';
export { createPetstoreClient, type PetstoreClient, type PetstoreClientOptions } from './client.js';

/** An int64 as the client hands it over and takes it back: exact decimal digits (D17). */
export type Int64String = `${bigint}`;
export type { ApiError, Order } from '../contract/model.js';
export type { paths } from '../generated/openapi.js';
