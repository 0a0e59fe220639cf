/**
 * The typed control object: the `/__mock/` endpoints as methods, over the same control-operations.ts. Ids
 * come back as decimal strings (D17); a refused input is a bug in the test, so it throws a
 * {@link MockControlError} with the endpoint's 400 message rather than returning a value a test could ignore.
 */
import type { Contract, ExactJson } from '../contract/index.js';
import type { operations } from '../generated/openapi.js';
import { type MockSettings, planFault, putOrder, sessionNames, setDelay } from './control-operations.js';
import { type FaultRule, faultRuleJson } from './faults.js';
import { buildFixtures, FIXTURE_DATA_SOURCE, type FixtureData, type FixtureSet } from './fixtures.js';
import { type OrderStateTable, orderStatesOf } from './order-state.js';
import type { StoredOrder } from './order-store.js';
import type { LoggedRequest } from './request-log.js';
import type { Sessions } from './sessions.js';

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
  /** `pending`, `shipped` or `cancelled` (the document's `x-petstore-order-states`). */
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
  /** The operation it applies to; every operation when left out. */
  operation?: OperationId;
  /** How many requests it applies to; default 1. */
  times?: number;
  /** Milliseconds to wait first (0 to 30,000). */
  delayMs?: number;
}

/**
 * A simulated fault (D18): answer a status (with the Error message the screen should show, if given),
 * drop the connection, or only wait.
 *
 * @example mock.fault({ operation: 'listOrders', status: 500 }) // the next list answers 500
 * @example mock.fault({ operation: 'listOrders', status: 503, message: 'The store is closed for maintenance.' })
 */
export type FaultPlanInput =
  | (FaultBase & { status: number; message?: string; drop?: never })
  | (FaultBase & { drop: true; status?: never; message?: never })
  | (FaultBase & { delayMs: number; status?: never; drop?: never; message?: never });

/** A planned fault as `GET /__mock/faults` lists it. */
export interface PlannedFault {
  id: number;
  operation: string | null;
  status?: number;
  drop?: true;
  delayMs: number;
  /** Requests it still applies to. */
  remaining: number;
  /** The Error message it answers with, when planned with one. */
  message?: string;
}

/** One control object for the mock, wherever it runs: `createMock`, or the handlers of `createHandlers`. */
export interface MockControl {
  /**
   * Everything back to how it started: every session's orders to the fixtures (the last `seed`, else the
   * ones given at creation), faults and request logs forgotten, named sessions dropped, the delay back to
   * the `delayMs` option. The one line of test isolation: `afterEach(() => mock.reset())`.
   */
  reset(): Promise<void>;
  /** One session back to the fixtures, as `POST /__mock/reset` with `X-Mock-Session` does. */
  resetSession(session?: string): Promise<void>;
  /**
   * Replaces the fixtures every session starts from, checked like a fixture file (a bad one throws a
   * `FixtureError`), and resets every session to them. They last until the next `seed`.
   */
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

/** What the control object needs of an engine: its sessions, its settings, and how it resets and reloads. */
export interface ControlTarget {
  /** The contract the mock serves: its state table, Order schema and operations. */
  readonly contract: Contract;
  readonly sessions: Sessions;
  readonly settings: MockSettings;
  /** Every session back to the fixtures and the delay back to its start. */
  reset(): void;
  /** New fixtures for every session. */
  reload(fixtures: FixtureSet): void;
}

/**
 * The control object's view of an order.
 *
 * @example controlOrder({ id: 2n ** 53n + 1n, state: 'pending' }, states) // { id: '9007199254740993', complete: false, state: 'pending' }
 */
export function controlOrder(order: StoredOrder, states: OrderStateTable): ControlOrder {
  return {
    id: String(order.id),
    ...(order.petId === undefined ? {} : { petId: String(order.petId) }),
    ...(order.quantity === undefined ? {} : { quantity: order.quantity }),
    ...(order.shipDate === undefined ? {} : { shipDate: order.shipDate }),
    complete: states.complete(order.state),
    state: order.state,
  };
}

/** The control object's view of a fault rule: what `GET /__mock/faults` lists, from the same function. */
export function plannedFault(rule: FaultRule): PlannedFault {
  return faultRuleJson(rule) as unknown as PlannedFault;
}

/** A decimal string becomes the exact integer it names; anything else is left for the checks to refuse. */
function exactInt64(value: Int64Input): ExactJson {
  return typeof value === 'string' && /^-?\d+$/.test(value) ? BigInt(value) : value;
}

function orThrow<T>(result: { ok: true; value: T } | { ok: false; error: string }): T {
  if (!result.ok) throw new MockControlError(result.error);
  return result.value;
}

/**
 * What an engine offers the control object.
 *
 * @example createMockControl(controlTarget(engine))
 */
export function controlTarget(engine: {
  core: { contract: Contract; sessions: Sessions; delayMs: number };
  reset(): void;
  reload(fixtures: FixtureSet): void;
}): ControlTarget {
  return {
    contract: engine.core.contract,
    sessions: engine.core.sessions,
    settings: engine.core,
    reset: () => engine.reset(),
    reload: (fixtures) => engine.reload(fixtures),
  };
}

/**
 * The control object over an engine's state.
 *
 * @example const control = createMockControl(target); await control.fault({ status: 503 });
 */
export function createMockControl(target: ControlTarget): MockControl {
  const { contract, sessions } = target;
  const states = orderStatesOf(contract);
  const view = (order: StoredOrder) => controlOrder(order, states);
  return {
    async reset() {
      target.reset();
    },
    async resetSession(session) {
      sessions.reset(session);
    },
    async seed(fixtures) {
      const checked = buildFixtures(fixtures, FIXTURE_DATA_SOURCE, contract);
      if (!checked.ok) throw checked.error;
      target.reload(checked.value);
    },
    async orders(session) {
      return [...sessions.get(session).orders.all()].map(view);
    },
    async putOrder({ id, petId, ...fields }, session) {
      if (typeof id === 'number' && !Number.isSafeInteger(id)) {
        // Past 2^53 the number has already lost its digits: it would name another order.
        throw new MockControlError(
          `The order id ${id} is not a safe integer; pass it as a decimal string or a bigint.`,
        );
      }
      const body: Record<string, ExactJson> = { ...fields };
      if (petId !== undefined) body.petId = exactInt64(petId);
      const put = orThrow(putOrder(contract, sessions.get(session), String(id), body));
      return view(put.order);
    },
    async fault(plan, session) {
      const body: Record<string, ExactJson> = Object.fromEntries(
        Object.entries(plan).filter(([, value]) => value !== undefined),
      );
      return plannedFault(orThrow(planFault(contract, sessions.get(session), body)));
    },
    async faults(session) {
      return sessions.get(session).faults.list().map(plannedFault);
    },
    async clearFaults(session) {
      sessions.get(session).faults.clear();
    },
    async delay(ms) {
      orThrow(setDelay(target.settings, { delayMs: ms }));
    },
    async requests(session) {
      return sessions.get(session).log.entries();
    },
    async sessions() {
      return sessionNames(sessions);
    },
  };
}
