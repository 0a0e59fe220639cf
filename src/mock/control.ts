/** Each control operation once, run by its `/__mock/` endpoint, the control object and a state restore. */
import {
  type Contract,
  type ExactJson,
  parseExactJson,
  parseInt64,
  stateTable,
  stringifyExactJson,
} from '../contract/index.js';
import { isObject } from '../contract/refs.js';
import type { operations } from '../generated/openapi.js';
import { fail, ok, type Result } from '../result.js';
import type { MockEngine } from './engine.js';
import { mockError } from './errors.js';
import { MAX_FAULT_RULES, type PlannedFault, parseDelay, parseFaultSpec } from './faults.js';
import { buildFixtures, type FixtureData } from './fixtures.js';
import type { StoredOrder } from './order-store.js';
import type { LoggedRequest } from './request-log.js';
import { type CoreRequest, errorResponse, jsonResponse } from './responses.js';
import { DEFAULT_SESSION, type Session } from './sessions.js';

export type { PlannedFault } from './faults.js';
export type { LoggedRequest } from './request-log.js';

/** An int64 as a caller may give it: the client's decimal string, a safe number or a bigint. */
export type Int64Input = string | number | bigint;

/** An order as the control surface shows it: the published Order plus its internal `state`. */
export interface ControlOrder {
  id: string;
  petId?: string;
  quantity?: number;
  shipDate?: string;
  complete: boolean;
  /** `pending`, `shipped` or `cancelled` (`x-petstore-order-states`). */
  state: string;
}

/** An order to put into a session (`PUT /__mock/orders/{id}`). */
export interface ControlOrderInput {
  id: Int64Input;
  state: 'pending' | 'shipped' | 'cancelled';
  petId?: Int64Input;
  quantity?: number;
  shipDate?: string;
}

/** The operations a fault can target: the document's operationIds. */
export type OperationId = keyof operations;

interface FaultBase {
  /** Default: every operation. */
  operation?: OperationId;
  /** How many requests it applies to; default 1. */
  times?: number;
  /** Milliseconds to wait first (0 to 30,000). */
  delayMs?: number;
}

/** A simulated fault (D18): answer a status (with a message to show), drop the connection, or only wait. */
export type FaultPlanInput =
  | (FaultBase & { status: number; message?: string; drop?: never })
  | (FaultBase & { drop: true; status?: never; message?: never })
  | (FaultBase & { delayMs: number; status?: never; drop?: never; message?: never });

/** One control object for the mock, wherever it runs: `createMock`, or the handlers of `createHandlers`. */
export interface MockControl {
  /** Every session back to the fixtures (the last `seed`); faults, logs, named sessions gone; delay reset. */
  reset(): Promise<void>;
  /** One session back to the fixtures, as `POST /__mock/reset` with `X-Mock-Session` does. */
  resetSession(session?: string): Promise<void>;
  /** Replaces the fixtures sessions start from (bad ones throw a `FixtureError`) and resets to them. */
  seed(fixtures: FixtureData): Promise<void>;
  /** Every order of a session (default: the default session), cancelled ones included, with its state. */
  orders(session?: string): Promise<ControlOrder[]>;
  /** Adds or replaces an order of a session in a given state (`PUT /__mock/orders/{id}`). */
  putOrder(order: ControlOrderInput, session?: string): Promise<ControlOrder>;
  /** Plans a simulated fault for a session's next requests (`POST /__mock/faults`). */
  fault(plan: FaultPlanInput, session?: string): Promise<PlannedFault>;
  /** The faults still planned for a session, in the order they apply (`GET /__mock/faults`). */
  faults(session?: string): Promise<PlannedFault[]>;
  /** Forgets a session's planned faults (`DELETE /__mock/faults`). */
  clearFaults(session?: string): Promise<void>;
  /** Sets the delay before every answer, for every session (`PUT /__mock/delay`). */
  delay(ms: number): Promise<void>;
  /** A session's recent requests, oldest first (`GET /__mock/requests`). */
  requests(session?: string): Promise<LoggedRequest[]>;
  /** The sessions alive now, `default` first (`GET /__mock/sessions`). */
  sessions(): Promise<string[]>;
}

/** A control input the mock refuses; the message is the one the endpoint's 400 Error carries. */
export class MockControlError extends Error {
  override name = 'MockControlError';
}

/** What the control operations change: a mock's sessions and global delay, under its contract. */
export type MockState = Pick<MockEngine, 'contract' | 'sessions' | 'delayMs'>;

interface ControlContext {
  mock: MockState;
  session: Session;
  id?: string; // of PUT /__mock/orders/{id}
  body?: ExactJson | undefined;
}

/** A control operation's answer: 200 unless it says, in the session it names (a reset's fresh one). */
type Outcome = Result<{ status?: number; value: Record<string, unknown>; session?: Session }, string>;

export const CONTROL_BASE = '/__mock';

const PUT_FIELDS = new Set(['state', 'petId', 'quantity', 'shipDate', 'id']);

function controlOrder({ id, petId, quantity, shipDate, state }: StoredOrder, contract: Contract) {
  const complete = stateTable(contract).complete(state);
  return { id, petId, quantity, shipDate, complete, state } as Record<string, ExactJson>;
}

function stateOf(session: Session, { mock: { contract, sessions } }: ControlContext) {
  const { fixtures } = sessions;
  return {
    session: session.name,
    fixtures: fixtures.source,
    fixturesDescription: fixtures.description ?? null,
    states: fixtures.orders.states.states,
    orders: [...session.orders.all()].map((order) => controlOrder(order, contract)),
    pets: [...fixtures.pets.values()].map(({ json }) => (parseExactJson(json) as { value?: unknown }).value),
    petsDeprecation: fixtures.deprecationHeader,
    petsSunset: fixtures.sunsetHeader,
  };
}

const faultsOf = ({ session, mock }: ControlContext) => ({
  session: session.name,
  delayMs: mock.delayMs,
  faults: session.faults.list(),
});

/** Adds or replaces an order, checked as a fixture file's order is (the Order schema, exact int64s, D8). */
function putOrder({ session, body, id: rawId = '', mock: { contract } }: ControlContext): Outcome {
  const id = parseInt64(rawId);
  if (!id.ok) {
    return fail(
      `The order id in PUT /__mock/orders/{id} must be an int64 integer, got "${rawId.slice(0, 40)}".`,
    );
  }
  if (!isObject(body)) {
    return fail('The body must be a JSON object such as {"state":"pending","petId":10,"quantity":1}.');
  }
  const unknown = Object.keys(body).filter((key) => !PUT_FIELDS.has(key));
  if (unknown.length > 0) {
    return fail(`Unknown field(s) ${unknown.join(', ')}; allowed: id, state, petId, quantity, shipDate.`);
  }
  // The body may repeat the path's id, as an exact JSON integer; anything else names another order or none.
  const bodyId = body.id;
  const exact = typeof bodyId === 'bigint' || Number.isSafeInteger(bodyId);
  if (exact ? BigInt(bodyId as bigint) !== id.value : bodyId !== undefined) {
    return fail(
      `The body's id ${stringifyExactJson(bodyId).slice(0, 40)} differs from the id ${id.value} in the path; send the same id as a JSON integer, or leave it out.`,
    );
  }
  const { state, id: _ignored, ...fields } = body;
  const states = stateTable(contract);
  if (typeof state !== 'string' || !states.isState(state)) {
    return fail(`"state" must be one of ${states.states.join(', ')}.`);
  }
  const order = { ...fields, id: id.value, status: state };
  const checked = buildFixtures({ orders: [order] }, contract, 'request body');
  if (!checked.ok) {
    const reasons = checked.error.problems.map((problem) =>
      problem.replace(/^orders\[0\] \(id [^)]*\): /, ''),
    );
    return fail(`The order is invalid: ${reasons.join('; ')}.`);
  }
  const stored = checked.value.orders.orders.get(id.value) as StoredOrder;
  const created = session.orders.put(stored);
  if (!created.ok) {
    return fail(`${created.error}; POST /__mock/reset empties it, or use another X-Mock-Session.`);
  }
  return ok({ status: created.value ? 201 : 200, value: controlOrder(stored, contract) });
}

const requestsOf = ({ session: { name, log } }: ControlContext) => ({
  session: name,
  capacity: log.capacity,
  keylessCapacity: log.keyless?.capacity ?? 0,
  requests: log.entries(),
});

function addFault({ mock, session, body }: ControlContext): Outcome {
  const operationIds = mock.contract.operations.map((op) => op.operationId); // D18: any of the contract
  const spec = parseFaultSpec(body ?? null, operationIds);
  if (!spec.ok) return spec;
  const rule = session.faults.add(spec.value);
  if (!rule)
    return fail(`This session already holds ${MAX_FAULT_RULES} faults; DELETE /__mock/faults clears them.`);
  const value = { session: session.name, delayMs: mock.delayMs, fault: rule };
  return ok({ status: 201, value });
}

function putDelay({ mock, body }: ControlContext): Outcome {
  const delay = parseDelay(body ?? null);
  if (delay.ok) mock.delayMs = delay.value;
  return delay.ok ? ok({ value: { delayMs: delay.value } }) : delay;
}

function clearFaults(context: ControlContext): Outcome {
  context.session.faults.clear();
  return ok({ value: faultsOf(context) });
}

function reset(context: ControlContext): Outcome {
  const fresh = context.mock.sessions.reset(context.session.name);
  return ok({ value: stateOf(fresh, context), session: fresh });
}

/** Every control operation: its endpoint and what it does. No fault and no `Prefer` applies to them. */
export const CONTROL_OPERATIONS = {
  reset: { method: 'POST', path: '/reset', run: reset },
  state: { method: 'GET', path: '/state', run: (c) => ok({ value: stateOf(c.session, c) }) },
  putOrder: { method: 'PUT', path: '/orders/{id}', run: putOrder },
  requests: { method: 'GET', path: '/requests', run: (c) => ok({ value: requestsOf(c) }) },
  listFaults: { method: 'GET', path: '/faults', run: (c) => ok({ value: faultsOf(c) }) },
  addFault: { method: 'POST', path: '/faults', run: addFault },
  clearFaults: { method: 'DELETE', path: '/faults', run: clearFaults },
  getDelay: { method: 'GET', path: '/delay', run: ({ mock }) => ok({ value: { delayMs: mock.delayMs } }) },
  putDelay: { method: 'PUT', path: '/delay', run: putDelay },
  sessions: {
    method: 'GET',
    path: '/sessions',
    run: (c) => ok({ value: { sessions: [DEFAULT_SESSION, ...c.mock.sessions.names()] } }),
  },
} satisfies Record<string, { method: string; path: string; run: (context: ControlContext) => Outcome }>;

export type ControlName = keyof typeof CONTROL_OPERATIONS;

const decoder = new TextDecoder();

/** Answers one control endpoint; an empty or broken body reads as no body. */
export function handleControl(name: ControlName, request: CoreRequest, context: ControlContext) {
  const parsed = parseExactJson(request.body === undefined ? '' : decoder.decode(request.body));
  const body = parsed.ok ? parsed.value : undefined;
  const outcome: Outcome = CONTROL_OPERATIONS[name].run({ ...context, body });
  if (!outcome.ok) {
    return errorResponse(mockError('invalidRequest', { message: outcome.error }), context.session);
  }
  const { status = 200, value, session } = outcome.value;
  return jsonResponse(status, stringifyExactJson(value), session ?? context.session);
}

/** A value as the control object shows it: every exact int64 as its decimal string (D17). */
export function decimalIds(value: unknown): unknown {
  if (typeof value === 'bigint') return String(value);
  if (Array.isArray(value)) return value.map(decimalIds);
  if (typeof value !== 'object' || value === null) return value;
  const defined = Object.entries(value).filter(([, item]) => item !== undefined);
  return Object.fromEntries(defined.map(([key, item]) => [key, decimalIds(item)]));
}

/** The control object over an engine: each method runs its endpoint's operation, ids as strings (D17). */
export function createMockControl(engine: MockEngine): MockControl {
  // biome-ignore lint/suspicious/noExplicitAny: each caller names the field of the operation's value it reads.
  const run = (name: ControlName, session: string | undefined, input: Partial<ControlContext> = {}): any => {
    const context = { mock: engine, session: engine.sessions.get(session), ...input };
    const outcome = CONTROL_OPERATIONS[name].run(context);
    if (!outcome.ok) throw new MockControlError(outcome.error);
    return decimalIds(outcome.value.value);
  };
  return {
    reset: async () => engine.reset(),
    resetSession: async (session) => void run('reset', session),
    async seed(fixtures) {
      const checked = buildFixtures(fixtures, engine.contract);
      if (!checked.ok) throw checked.error;
      engine.reload(checked.value);
    },
    orders: async (session) => run('state', session).orders,
    async putOrder({ id, petId, ...fields }, session) {
      // Past 2^53 the number has already lost its digits: it would name another order.
      if (typeof id === 'number' && !Number.isSafeInteger(id)) {
        throw new MockControlError(
          `The order id ${id} is not a safe integer; pass it as a decimal string or a bigint.`,
        );
      }
      // Any decimal string is the integer it names (`'007'` too); the checks refuse anything else.
      const exact = typeof petId === 'string' && /^-?\d+$/.test(petId) ? BigInt(petId) : petId;
      const body = { ...fields, ...(petId === undefined ? {} : { petId: exact }) };
      return run('putOrder', session, { id: String(id), body });
    },
    fault: async (plan, session) => run('addFault', session, { body: decimalIds(plan) as ExactJson }).fault,
    faults: async (session) => run('listFaults', session).faults,
    clearFaults: async (session) => void run('clearFaults', session),
    delay: async (ms) => void run('putDelay', undefined, { body: { delayMs: ms } }),
    requests: async (session) => run('requests', session).requests,
    sessions: async () => run('sessions', undefined).sessions,
  };
}
