/**
 * What the contract module hands out: the operations of the document with their parameters and
 * documented responses, and the order state machine of `x-petstore-order-states`. Plain data, built once
 * by `assembleContract` (`build.ts`) from a document and the validators of its schemas.
 */
import type { ExactJson } from './lossless-json.js';
import type { ParameterSpec, RawParameter } from './parameters.js';
import type { SchemaViolation, Verdict } from './validators.js';

export type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch' | 'trace';
export const HTTP_METHODS: readonly HttpMethod[] = [
  'get',
  'put',
  'post',
  'delete',
  'options',
  'head',
  'patch',
  'trace',
];

export interface ResponseSpec {
  status: number;
  /** The media type of the documented body, or `null` when the response has no body (204). */
  mediaType: string | null;
  /** Named examples of the body, exact (ids above 2^53 stay `bigint`). */
  examples: ReadonlyMap<string, ExactJson>;
  /** Documented response header names, lower-case. */
  headers: readonly string[];
  /** Conformance levels of `x-petstore-conformance` (D3), when the response has them. */
  conformance: { decision: string; status: 'failure' | 'warning'; body: 'failure' | 'warning' } | null;
}

export interface OperationSpec {
  operationId: string;
  method: HttpMethod;
  /** The path template of the document, relative to the base path: `/store/orders/{orderId}`. */
  path: string;
  deprecated: boolean;
  /** The `x-stability` marker (D13), `null` where the operation carries none. */
  stability: string | null;
  /** Security scheme names required by the operation (every operation: `bearerAuth`, §5). */
  security: readonly string[];
  parameters: readonly ParameterSpec[];
  /** Documented statuses, ascending. */
  statuses: readonly number[];
  responses: ReadonlyMap<number, ResponseSpec>;
}

export interface OrderStateSpec {
  listed: boolean;
  complete?: boolean;
  source: string;
}

export interface TransitionSpec {
  from: string;
  operation: string;
  to: string;
  status: number;
  code?: string;
  source: string;
}

/** The order state machine of `x-petstore-order-states` (§3, D1–D3). */
export interface OrderStateMachine {
  states: Readonly<Record<string, OrderStateSpec>>;
  transitions: readonly TransitionSpec[];
}

export type ComponentSchemaName = 'Order' | 'Error' | 'Pet';

export interface Contract {
  /** The parsed document, as authored. */
  document: Readonly<Record<string, unknown>>;
  /**
   * The path every operation is served below (D12), from the document's local `servers` entry (else its
   * first): `/v1` for the built-in document. Operation paths are relative to it.
   */
  basePath: string;
  version: string;
  operations: readonly OperationSpec[];
  operation(operationId: string): OperationSpec;
  orderStates: OrderStateMachine;
  /** Validates an exact JSON value against a component schema. */
  validateSchema<T = ExactJson>(name: ComponentSchemaName, value: ExactJson): Verdict<T>;
  /**
   * Validates a response body against what the document says for that operation and status; `text`
   * is parsed losslessly first. A status without a documented body must come with an empty body.
   */
  validateResponseBody(operationId: string, status: number, text: string): Verdict<ExactJson | undefined>;
  /**
   * Checks a declared path, query, header or cookie parameter against its schema (D21). The text is read
   * as the type the schema names first (an int64 exactly, as a `bigint`); that value comes back on
   * success. `undefined` is an absent parameter: refused when it is required. A header name is matched
   * case-insensitively. Asking about a parameter the operation does not declare is a bug, and throws.
   *
   * @example contract.validateParameter('cancelOrder', 'path', 'orderId', '9007199254740993') // { ok: true, value: 9007199254740993n }
   */
  validateParameter(
    operationId: string,
    location: ParameterSpec['in'],
    name: string,
    raw: RawParameter | undefined,
  ): Verdict<ExactJson | undefined>;
  /** Parses a path or query value per its parameter schema: an int64 comes back as an exact `bigint`. */
  parseParameter(param: ParameterSpec, raw: string): Verdict<bigint | number | string>;
}

export type { SchemaViolation, Verdict };
