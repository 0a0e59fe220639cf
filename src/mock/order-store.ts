/**
 * The orders of one session. Orders live in a Map keyed by their exact int64 id (D8). A session shares
 * the fixtures' orders and keeps only its own changes, so a hundred sessions over a large fixture cost
 * a hundred small maps, not a hundred copies. The serialised list body is cached until the session's
 * state changes; every mutation goes through `#set`, which drops the cache.
 */
import type { TransitionSpec } from '../contract/index.js';
import { fail, ok, type Result } from '../result.js';
import { type Bytes, utf8 } from './bytes.js';
import { errorNameFor, type MockError, mockError } from './errors.js';
import { type OrderState, orderStates } from './order-state.js';

/** An order as the mock keeps it: the published fields, exact, plus its internal state (D1). */
export interface StoredOrder {
  readonly id: bigint;
  readonly petId?: bigint;
  readonly quantity?: number;
  readonly shipDate?: string;
  readonly state: OrderState;
}

// Orders are immutable, so each one's JSON is computed once and shared by every session listing it.
const fragments = new WeakMap<StoredOrder, string>();

/**
 * The published Order (§2) of a stored order: no `status` field, `complete` from the state (D1), ids as
 * exact digits. Hand-written because it runs for every listed order and JSON.stringify cannot write
 * bigints.
 *
 * @example orderJson({ id: 2n ** 53n + 1n, state: 'shipped' }) // '{"id":9007199254740993,"complete":true}'
 */
export function orderJson(order: StoredOrder): string {
  let json = fragments.get(order);
  if (json !== undefined) return json;
  json = `{"id":${order.id}`;
  if (order.petId !== undefined) json += `,"petId":${order.petId}`;
  if (order.quantity !== undefined) json += `,"quantity":${order.quantity}`;
  if (order.shipDate !== undefined) json += `,"shipDate":${JSON.stringify(order.shipDate)}`;
  json += `,"complete":${orderStates.complete(order.state)}}`;
  fragments.set(order, json);
  return json;
}

function listBody(orders: Iterable<StoredOrder>): Bytes {
  const parts: string[] = [];
  for (const order of orders) if (orderStates.isListed(order.state)) parts.push(orderJson(order));
  return utf8(`[${parts.join(',')}]`);
}

/** The fixtures' orders, shared read-only by every session, with their list body computed once. */
export class OrderBase {
  readonly orders: ReadonlyMap<bigint, StoredOrder>;
  #body: Bytes | undefined;

  constructor(orders: ReadonlyMap<bigint, StoredOrder>) {
    this.orders = orders;
  }

  listBody(): Bytes {
    this.#body ??= listBody(this.orders.values());
    return this.#body;
  }
}

export class OrderStore {
  readonly #base: OrderBase;
  /** Orders this session added or changed, by id. */
  readonly #changes = new Map<bigint, StoredOrder>();
  #body: Bytes | undefined;

  constructor(base: OrderBase) {
    this.#base = base;
  }

  get(id: bigint): StoredOrder | undefined {
    return this.#changes.get(id) ?? this.#base.orders.get(id);
  }

  /** Every order, cancelled ones included, in fixture order and then in the order they were added. */
  *all(): IterableIterator<StoredOrder> {
    for (const [id, order] of this.#base.orders) yield this.#changes.get(id) ?? order;
    for (const [id, order] of this.#changes) if (!this.#base.orders.has(id)) yield order;
  }

  /** The JSON body of `GET /store/orders`: the listed orders (D2), cached until the next change. */
  listBody(): Bytes {
    if (this.#changes.size === 0) return this.#base.listBody();
    this.#body ??= listBody(this.all());
    return this.#body;
  }

  /**
   * Applies an operation to one order, as the state table says: the new state and the response status,
   * or the Error the table names (a shipped order → 409, a cancelled one → 404).
   *
   * @example store.apply(1n, 'cancelOrder') // { ok: true, value: { from: 'pending', to: 'cancelled', status: 204, … } }
   */
  apply(id: bigint, operationId: string): Result<TransitionSpec, MockError> {
    const order = this.get(id);
    if (!order) return fail(mockError('orderNotFound', { id }));
    const transition = orderStates.transition(order.state, operationId);
    if (!transition) {
      throw new Error(`x-petstore-order-states has no transition for ${operationId} from ${order.state}`);
    }
    if (transition.to !== order.state) this.#set({ ...order, state: transition.to });
    if (transition.status < 400) return ok(transition);
    const name = transition.code === undefined ? undefined : errorNameFor(transition.code, transition.status);
    if (!name) {
      throw new Error(
        `x-petstore-order-states names ${transition.code} ${transition.status}, not in MOCK_ERRORS`,
      );
    }
    return fail(mockError(name, { id }));
  }

  /** Adds or replaces an order (control endpoint); `true` when it is new. */
  put(order: StoredOrder): boolean {
    const created = this.get(order.id) === undefined;
    this.#set(order);
    return created;
  }

  #set(order: StoredOrder): void {
    this.#changes.set(order.id, order);
    this.#body = undefined;
  }
}
