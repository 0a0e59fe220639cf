/** What the contract hands out: the document's operations, the order state machine and the API's generated types. */
import type { components } from '../generated/openapi.js';
import type { ExactJson } from './lossless-json.js';
import type { ParameterSpec, RawParameter } from './parameters.js';
import type { Verdict } from './validators.js';

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export interface ResponseSpec {
  status: number;
  /** `null` without a body (204). */
  mediaType: string | null;
  /** Named examples of the body, exact (D8). */
  examples: ReadonlyMap<string, ExactJson>;
  /** The levels of `x-petstore-conformance` (D3). */
  conformance: { decision: string; status: 'failure' | 'warning'; body: 'failure' | 'warning' } | null;
}

export interface OperationSpec {
  operationId: string;
  method: (typeof HTTP_METHODS)[number];
  /** Below the base path: `/store/orders/{orderId}`. */
  path: string;
  deprecated: boolean;
  /** The `x-stability` marker (D13). */
  stability: string | null;
  /** Security scheme names (§5). */
  security: readonly string[];
  parameters: readonly ParameterSpec[];
  /** Ascending. */
  statuses: readonly number[];
  responses: ReadonlyMap<number, ResponseSpec>;
}

/** A row of the state table: `from` a state, an `operation` answers `status` (and `code`) and moves it `to`. */
export type TransitionSpec = Record<'from' | 'operation' | 'to' | 'source', string> & {
  status: number;
  code?: string;
};

/** The order state machine of `x-petstore-order-states` (§3, D1–D3). */
export interface OrderStateMachine {
  states: Readonly<Record<string, { listed: boolean; complete?: boolean; source: string }>>;
  transitions: readonly TransitionSpec[];
}

export interface Contract {
  document: Readonly<Record<string, unknown>>;
  /** The path every operation is served below (D12): `/v1`. */
  basePath: string;
  version: string;
  operations: readonly OperationSpec[];
  operation(operationId: string): OperationSpec;
  orderStates: OrderStateMachine;
  validateSchema<T = ExactJson>(name: 'Order' | 'Error' | 'Pet', value: ExactJson): Verdict<T>;
  /** Validates a response body, parsed losslessly; no documented body: empty. */
  validateResponseBody(operationId: string, status: number, text: string): Verdict<ExactJson | undefined>;
  /** Checks a declared parameter (`undefined`: absent), read as its type (D21); throws for an undeclared one. */
  validateParameter(
    operationId: string,
    location: ParameterSpec['in'],
    name: string,
    raw: RawParameter | undefined,
  ): Verdict<ExactJson | undefined>;
}

/** An order; the client hands its `id` and `petId` over as exact decimal strings (D17). */
export type Order = components['schemas']['Order'];
/** The body of every error answer (§7). */
export type ApiError = components['schemas']['Error'];
/** A pet, as the deprecated `GET /pets/{petId}` answers it. */
export type Pet = components['schemas']['Pet'];

/** An int64 as the toolkit keeps it: a `number` while exact, a `bigint` above 2^53 (D8). */
export type Int64 = number | bigint;
