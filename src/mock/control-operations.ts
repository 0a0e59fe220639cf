/**
 * What the control surface does, once: the `/__mock/` endpoints (control.ts) and the typed control object
 * (mock-control.ts) are thin adapters over these functions, so both get the same checks and messages.
 */
import { type Contract, type ExactJson, type ParameterSpec, stringifyExactJson } from '../contract/index.js';
import { fail, ok, type Result } from '../result.js';
import { type FaultRule, MAX_FAULT_RULES, parseDelay, parseFaultSpec } from './faults.js';
import { buildFixtures } from './fixtures.js';
import { orderStatesOf } from './order-state.js';
import type { StoredOrder } from './order-store.js';
import { DEFAULT_SESSION, type Session, type Sessions } from './sessions.js';

/** What the control surface may change beyond a session: the global delay. */
export interface MockSettings {
  delayMs: number;
}

/** The id is read exactly as the document reads an order id (int64, D8). */
function idParameter(contract: Contract): ParameterSpec {
  return {
    ...(contract.operation('cancelOrder').parameters.find((p) => p.name === 'orderId') as ParameterSpec),
    name: 'id',
  };
}

/** The operations a fault may name: every operation of the contract. */
export function operationIds(contract: Contract): string[] {
  return contract.operations.map((operation) => operation.operationId);
}
const PUT_FIELDS = new Set(['state', 'petId', 'quantity', 'shipDate', 'id']);

/**
 * Adds or replaces an order of a session in a given state, checked as a fixture file's order is (the
 * document's Order schema, exact int64s).
 *
 * @example putOrder(contract, session, '7', { state: 'pending', petId: 10 }) // { ok: true, value: { order, created: true } }
 */
export function putOrder(
  contract: Contract,
  session: Session,
  rawId: string,
  body: ExactJson | undefined,
): Result<{ order: StoredOrder; created: boolean }, string> {
  const id = contract.parseParameter(idParameter(contract), rawId);
  if (!id.ok || typeof id.value !== 'bigint') {
    return fail(
      `The order id in PUT /__mock/orders/{id} must be an int64 integer, got "${rawId.slice(0, 40)}".`,
    );
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return fail('The body must be a JSON object such as {"state":"pending","petId":10,"quantity":1}.');
  }
  const unknown = Object.keys(body).filter((key) => !PUT_FIELDS.has(key));
  if (unknown.length > 0) {
    return fail(`Unknown field(s) ${unknown.join(', ')}; allowed: id, state, petId, quantity, shipDate.`);
  }
  // The body may repeat the path's id, as an exact JSON integer; anything else names another order or none.
  const bodyId = body.id;
  const sameId =
    bodyId === undefined ||
    (typeof bodyId === 'bigint' && bodyId === id.value) ||
    (typeof bodyId === 'number' && Number.isSafeInteger(bodyId) && BigInt(bodyId) === id.value);
  if (!sameId) {
    return fail(
      `The body's id ${stringifyExactJson(bodyId).slice(0, 40)} differs from the id ${id.value} in the path; send the same id as a JSON integer, or leave it out.`,
    );
  }
  const { state, id: _ignored, ...fields } = body;
  const states = orderStatesOf(contract);
  if (typeof state !== 'string' || !states.isState(state)) {
    return fail(`"state" must be one of ${states.states.join(', ')}.`);
  }
  const checked = buildFixtures(
    { orders: [{ ...fields, id: id.value, status: state }] },
    'request body',
    contract,
  );
  if (!checked.ok) {
    const reasons = checked.error.problems.map((problem) =>
      problem.replace(/^orders\[0\] \(id [^)]*\): /, ''),
    );
    return fail(`The order is invalid: ${reasons.join('; ')}.`);
  }
  const order = checked.value.orders.orders.get(id.value) as StoredOrder;
  const created = session.orders.put(order);
  if (!created.ok) {
    return fail(`${created.error}; POST /__mock/reset empties it, or use another X-Mock-Session.`);
  }
  return ok({ order, created: created.value });
}

/**
 * Plans a simulated fault (D18) for a session's next requests.
 *
 * @example planFault(contract, session, { operation: 'listOrders', status: 503 }) // { ok: true, value: { id: 1, … } }
 */
export function planFault(
  contract: Contract,
  session: Session,
  body: ExactJson | undefined,
): Result<FaultRule, string> {
  const spec = parseFaultSpec(body ?? null, operationIds(contract));
  if (!spec.ok) return spec;
  const rule = session.faults.add(spec.value);
  if (!rule) {
    return fail(`This session already holds ${MAX_FAULT_RULES} faults; DELETE /__mock/faults clears them.`);
  }
  return ok(rule);
}

/**
 * Changes the delay before every answer, for every session.
 *
 * @example setDelay(settings, { delayMs: 250 }) // { ok: true, value: 250 }
 */
export function setDelay(settings: MockSettings, body: ExactJson | undefined): Result<number, string> {
  const delay = parseDelay(body ?? null);
  if (!delay.ok) return delay;
  settings.delayMs = delay.value;
  return ok(delay.value);
}

/** The sessions alive now, the default one first, without creating or reordering any. */
export function sessionNames(sessions: Sessions): string[] {
  return [DEFAULT_SESSION, ...sessions.names()];
}
