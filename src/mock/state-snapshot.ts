/**
 * A mock's changeable state as text, and back: what each session changed of its orders, the faults it
 * still has planned, and the global delay. What the fixtures hold is not in it (they are rebuilt at every
 * start), nor the request logs (a timeline per page load). Ids are exact decimal strings, so that an id
 * above 2^53 survives `JSON`. MSW's `persist: inSessionStorage` keeps this text in `sessionStorage`.
 */
import type { Contract, ExactJson } from '../contract/index.js';
import { fail, ok, type Result } from '../result.js';
import { type MockSettings, operationIds } from './control-operations.js';
import { MAX_DELAY_MS, parseFaultSpec } from './faults.js';
import { type OrderStateTable, orderStatesOf } from './order-state.js';
import type { StoredOrder } from './order-store.js';
import { DEFAULT_SESSION, type Sessions } from './sessions.js';

const VERSION = 1;

interface SavedOrder {
  id: string;
  petId?: string;
  quantity?: number;
  shipDate?: string;
  state: string;
}

interface SavedFault {
  operation?: string;
  status?: number;
  drop?: true;
  delayMs: number;
  times: number;
  message?: string;
}

interface SavedState {
  version: number;
  delayMs: number;
  sessions: Array<{ name: string; orders: SavedOrder[]; faults: SavedFault[] }>;
}

function savedOrder(order: StoredOrder): SavedOrder {
  return {
    id: String(order.id),
    ...(order.petId === undefined ? {} : { petId: String(order.petId) }),
    ...(order.quantity === undefined ? {} : { quantity: order.quantity }),
    ...(order.shipDate === undefined ? {} : { shipDate: order.shipDate }),
    state: order.state,
  };
}

/**
 * The state as JSON text.
 *
 * @example snapshotState(sessions, { delayMs: 0 }) // '{"version":1,"delayMs":0,"sessions":[{"name":"default","orders":[],"faults":[]}]}'
 */
export function snapshotState(sessions: Sessions, settings: MockSettings): string {
  const names = [DEFAULT_SESSION, ...sessions.names()];
  const state: SavedState = {
    version: VERSION,
    delayMs: settings.delayMs,
    sessions: names.flatMap((name) => {
      const session = name === DEFAULT_SESSION ? sessions.get(undefined) : sessions.peek(name);
      if (!session) return [];
      const faults = session.faults.list().map(({ id: _id, remaining, ...rule }) => ({
        ...rule,
        times: remaining,
      }));
      return [{ name, orders: [...session.orders.changes()].map(savedOrder), faults }];
    }),
  };
  return JSON.stringify(state);
}

const INT64 = /^-?\d{1,19}$/;

function storedOrder(saved: SavedOrder, states: OrderStateTable): StoredOrder {
  if (!INT64.test(saved.id) || (saved.petId !== undefined && !INT64.test(saved.petId))) {
    throw new Error(`an order id that is not an integer: ${String(saved.id).slice(0, 40)}`);
  }
  if (!states.isState(saved.state)) throw new Error(`an unknown state ${saved.state}`);
  return {
    id: BigInt(saved.id),
    ...(saved.petId === undefined ? {} : { petId: BigInt(saved.petId) }),
    ...(typeof saved.quantity === 'number' ? { quantity: saved.quantity } : {}),
    ...(typeof saved.shipDate === 'string' ? { shipDate: saved.shipDate } : {}),
    state: saved.state,
  };
}

/**
 * Puts a saved state back into fresh sessions; an error, and nothing changed, when the text is not a
 * state this version saved (another version, or edited by hand).
 */
export function restoreState(
  text: string,
  contract: Contract,
  sessions: Sessions,
  settings: MockSettings,
): Result<void, string> {
  const states = orderStatesOf(contract);
  let state: SavedState;
  const restored: Array<() => void> = [];
  try {
    state = JSON.parse(text) as SavedState;
    if (state?.version !== VERSION || !Array.isArray(state.sessions)) throw new Error('another version');
    const delay = state.delayMs;
    if (!Number.isInteger(delay) || delay < 0 || delay > MAX_DELAY_MS) throw new Error('a bad delay');
    for (const saved of state.sessions) {
      const orders = saved.orders.map((order) => storedOrder(order, states));
      const faults = saved.faults.map((fault) => {
        const spec = parseFaultSpec(fault as unknown as ExactJson, operationIds(contract));
        if (!spec.ok) throw new Error(spec.error);
        return spec.value;
      });
      restored.push(() => {
        const session = sessions.get(saved.name);
        for (const order of orders) session.orders.restore(order);
        for (const fault of faults) session.faults.add(fault);
      });
    }
    restored.push(() => {
      settings.delayMs = delay;
    });
  } catch (error) {
    return fail(`the saved state is unusable (${error instanceof Error ? error.message : 'not JSON'})`);
  }
  for (const apply of restored) apply();
  return ok(undefined);
}
