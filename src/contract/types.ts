/** The API's types, from the generated file, so no shape is declared twice. */
import type { components, operations } from '../generated/openapi.js';

/** An order; the client hands its `id` and `petId` over as exact decimal strings (D17). */
export type Order = components['schemas']['Order'];
/** The body of every error answer (§7). */
export type ApiError = components['schemas']['Error'];
export type Pet = components['schemas']['Pet'];
export type ListOrdersOperation = operations['listOrders'];
export type CancelOrderOperation = operations['cancelOrder'];

/** An int64 as the toolkit keeps it: a `number` while exact, a `bigint` above 2^53 (D8). */
export type Int64 = number | bigint;
