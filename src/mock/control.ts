/**
 * Control endpoints, outside the versioned API under `/__mock/`, for tests and developers: reset a
 * session, read its full state (each order's internal state included), add or replace an order in a
 * given state, read the recent-request log, plan simulated faults (D18) and change the global delay.
 * They need a valid key and honour `X-Mock-Session`; no fault and no `Prefer` ever applies to them.
 */
import {
  type Contract,
  type ExactJson,
  parseExactJson,
  parseInt64,
  stringifyExactJson,
} from '../contract/index.js';
import { mockError } from './errors.js';
import { faultRuleJson, MAX_FAULT_RULES, parseDelay, parseFaultSpec } from './faults.js';
import { buildFixtures } from './fixtures.js';
import type { OrderStateTable } from './order-state.js';
import { orderJson, type StoredOrder } from './order-store.js';
import type { CoreRequest } from './request.js';
import { type CoreResponse, errorResponse, jsonResponse } from './responses.js';
import type { Session, Sessions } from './sessions.js';

export type ControlName =
  | 'reset'
  | 'state'
  | 'putOrder'
  | 'requests'
  | 'listFaults'
  | 'addFault'
  | 'clearFaults'
  | 'getDelay'
  | 'putDelay';

export const CONTROL_BASE = '/__mock';

export const CONTROL_ROUTES: ReadonlyArray<{ method: string; path: string; name: ControlName }> = [
  { method: 'POST', path: `${CONTROL_BASE}/reset`, name: 'reset' },
  { method: 'GET', path: `${CONTROL_BASE}/state`, name: 'state' },
  { method: 'PUT', path: `${CONTROL_BASE}/orders/{id}`, name: 'putOrder' },
  { method: 'GET', path: `${CONTROL_BASE}/requests`, name: 'requests' },
  { method: 'GET', path: `${CONTROL_BASE}/faults`, name: 'listFaults' },
  { method: 'POST', path: `${CONTROL_BASE}/faults`, name: 'addFault' },
  { method: 'DELETE', path: `${CONTROL_BASE}/faults`, name: 'clearFaults' },
  { method: 'GET', path: `${CONTROL_BASE}/delay`, name: 'getDelay' },
  { method: 'PUT', path: `${CONTROL_BASE}/delay`, name: 'putDelay' },
];

/** What the control endpoints may change beyond a session: the global delay. */
export interface MockSettings {
  delayMs: number;
}

export interface ControlContext {
  request: CoreRequest;
  session: Session;
  sessions: Sessions;
  params: Readonly<Record<string, string>>;
  settings: MockSettings;
  /** The contract the mock serves: its operations (for faults) and its Order schema (for put orders). */
  contract: Contract;
}

const PUT_FIELDS = new Set(['state', 'petId', 'quantity', 'shipDate', 'id']);
const decoder = new TextDecoder();

/** An order as the control endpoints show it: the published Order plus its internal `state`. */
export function controlOrderJson(order: StoredOrder, states: OrderStateTable): string {
  return `${orderJson(order, states).slice(0, -1)},"state":${JSON.stringify(order.state)}}`;
}

function stateJson(session: Session, sessions: Sessions): string {
  const states = sessions.fixtures.orders.states;
  const orders = [...session.orders.all()].map((order) => controlOrderJson(order, states)).join(',');
  const pets = [...sessions.fixtures.pets.values()].map((pet) => pet.json).join(',');
  const fixtures = sessions.fixtures;
  return `{"session":${JSON.stringify(session.name)},"fixtures":${JSON.stringify(fixtures.source)},"states":${JSON.stringify(states.states)},"orders":[${orders}],"pets":[${pets}],"petsDeprecation":${JSON.stringify(fixtures.deprecationHeader)},"petsSunset":${JSON.stringify(fixtures.sunsetHeader)}}`;
}

function invalid(message: string, session: Session): CoreResponse {
  return errorResponse(mockError('invalidRequest', { message }), session);
}

function putOrder({ request, session, sessions, params, contract }: ControlContext): CoreResponse {
  const rawId = params.id ?? '';
  // The id is read with the one int64 grammar of every order id (D8).
  const id = parseInt64(rawId);
  if (!id.ok) {
    return invalid(
      `The order id in PUT /__mock/orders/{id} must be an int64 integer, got "${rawId.slice(0, 40)}".`,
      session,
    );
  }
  const parsed = parseExactJson(request.body === undefined ? '' : decoder.decode(request.body));
  if (
    !parsed.ok ||
    typeof parsed.value !== 'object' ||
    parsed.value === null ||
    Array.isArray(parsed.value)
  ) {
    return invalid(
      'The body must be a JSON object such as {"state":"pending","petId":10,"quantity":1}.',
      session,
    );
  }
  const body = parsed.value;
  const unknown = Object.keys(body).filter((key) => !PUT_FIELDS.has(key));
  if (unknown.length > 0) {
    return invalid(
      `Unknown field(s) ${unknown.join(', ')}; allowed: id, state, petId, quantity, shipDate.`,
      session,
    );
  }
  // The body may repeat the path's id, as an exact JSON integer; anything else names another order or none.
  const bodyId = body.id;
  const sameId =
    bodyId === undefined ||
    (typeof bodyId === 'bigint' && bodyId === id.value) ||
    (typeof bodyId === 'number' && Number.isSafeInteger(bodyId) && BigInt(bodyId) === id.value);
  if (!sameId) {
    return invalid(
      `The body's id ${stringifyExactJson(bodyId).slice(0, 40)} differs from the id ${id.value} in the path; send the same id as a JSON integer, or leave it out.`,
      session,
    );
  }
  const { state, id: _ignored, ...fields } = body;
  const states = sessions.fixtures.orders.states;
  if (typeof state !== 'string' || !states.isState(state)) {
    return invalid(`"state" must be one of ${states.states.join(', ')}.`, session);
  }
  // The same checks as a fixture file's order: the document's Order schema, exact int64s.
  const checked = buildFixtures(
    { orders: [{ ...fields, id: id.value, status: state }] },
    'request body',
    contract,
  );
  if (!checked.ok) {
    const reasons = checked.error.problems.map((problem) =>
      problem.replace(/^orders\[0\] \(id [^)]*\): /, ''),
    );
    return invalid(`The order is invalid: ${reasons.join('; ')}.`, session);
  }
  const order = checked.value.orders.orders.get(id.value) as StoredOrder;
  const created = session.orders.put(order);
  if (!created.ok) {
    return invalid(
      `${created.error}; POST /__mock/reset empties it, or use another X-Mock-Session.`,
      session,
    );
  }
  return jsonResponse(created.value ? 201 : 200, controlOrderJson(order, states), session);
}

function faultsJson(session: Session, settings: MockSettings): string {
  return stringifyExactJson({
    session: session.name,
    delayMs: settings.delayMs,
    faults: session.faults.list().map(faultRuleJson),
  });
}

/** The body of a control request as exact JSON; an empty or broken body reads as `undefined`. */
function jsonBody(request: CoreRequest): ExactJson | undefined {
  const parsed = parseExactJson(request.body === undefined ? '' : decoder.decode(request.body));
  return parsed.ok ? parsed.value : undefined;
}

function addFault({ request, session, settings, contract }: ControlContext): CoreResponse {
  const body = jsonBody(request);
  const spec = parseFaultSpec(
    body ?? null,
    contract.operations.map((operation) => operation.operationId),
  );
  if (!spec.ok) return invalid(spec.error, session);
  const rule = session.faults.add(spec.value);
  if (!rule) {
    return invalid(
      `This session already holds ${MAX_FAULT_RULES} faults; DELETE /__mock/faults clears them.`,
      session,
    );
  }
  return jsonResponse(
    201,
    stringifyExactJson({ session: session.name, delayMs: settings.delayMs, fault: faultRuleJson(rule) }),
    session,
  );
}

function putDelay({ request, session, settings }: ControlContext): CoreResponse {
  const delay = parseDelay(jsonBody(request) ?? null);
  if (!delay.ok) return invalid(delay.error, session);
  settings.delayMs = delay.value;
  return jsonResponse(200, `{"delayMs":${delay.value}}`, session);
}

/**
 * Answers one control endpoint.
 *
 * @example handleControl('state', context) // 200 {"session":"default","orders":[…],…}
 */
export function handleControl(name: ControlName, context: ControlContext): CoreResponse {
  const { session, sessions } = context;
  switch (name) {
    case 'listFaults':
      return jsonResponse(200, faultsJson(session, context.settings), session);
    case 'addFault':
      return addFault(context);
    case 'clearFaults':
      session.faults.clear();
      return jsonResponse(200, faultsJson(session, context.settings), session);
    case 'getDelay':
      return jsonResponse(200, `{"delayMs":${context.settings.delayMs}}`, session);
    case 'putDelay':
      return putDelay(context);
    case 'reset': {
      const fresh = sessions.reset(session.name);
      return jsonResponse(200, stateJson(fresh, sessions), fresh);
    }
    case 'state':
      return jsonResponse(200, stateJson(session, sessions), session);
    case 'putOrder':
      return putOrder(context);
    case 'requests':
      return jsonResponse(
        200,
        stringifyExactJson({
          session: session.name,
          capacity: session.log.capacity,
          keylessCapacity: session.log.keyless?.capacity ?? 0,
          requests: session.log.entries(),
        }),
        session,
      );
  }
}
