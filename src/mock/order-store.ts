/** A session's orders: the fixtures' ones, shared by every session, plus its own changes (no copies). */
import type { StateTable, TransitionSpec } from '../contract/index.js';
import { fail, ok, type Result } from '../result.js';
import { errorNameFor, type MockError, mockError } from './errors.js';
import { type Bytes, utf8 } from './responses.js';

/** An order as the mock keeps it: the published fields, exact, plus its internal state (D1). */
export interface StoredOrder {
  readonly id: bigint;
  readonly petId?: bigint;
  readonly quantity?: number;
  readonly shipDate?: string;
  readonly state: string;
}

/** The published Order (§2): no `status`, `complete` from the state (D1), ids exact (unlike JSON). */
export function orderJson(order: StoredOrder, states: StateTable): string {
  const petId = order.petId === undefined ? '' : `,"petId":${order.petId}`;
  const quantity = order.quantity === undefined ? '' : `,"quantity":${order.quantity}`;
  const shipDate = order.shipDate === undefined ? '' : `,"shipDate":${JSON.stringify(order.shipDate)}`;
  return `{"id":${order.id}${petId}${quantity}${shipDate},"complete":${states.complete(order.state)}}`;
}

/** The JSON array of the listed orders (D2). */
function listJson(orders: Iterable<StoredOrder>, states: StateTable): Bytes {
  const parts: string[] = [];
  for (const order of orders) if (states.isListed(order.state)) parts.push(orderJson(order, states));
  return utf8(`[${parts.join(',')}]`);
}

/** The fixtures' orders, shared read-only by every session, with their list body computed once. */
export class OrderBase {
  #body: Bytes | undefined;
  #listed: number | undefined;

  constructor(
    readonly orders: ReadonlyMap<bigint, StoredOrder>,
    readonly states: StateTable,
  ) {}

  listBody(): Bytes {
    this.#body ??= listJson(this.orders.values(), this.states);
    return this.#body;
  }

  listedCount(): number {
    this.#listed ??= [...this.orders.values()].filter((order) => this.states.isListed(order.state)).length;
    return this.#listed;
  }
}

/** What one session may hold of orders put through `PUT /__mock/orders/{id}`: a test needs a handful. */
export const PUT_LIMITS = { orders: 1000, bytes: 256 * 1024 } as const;

export class OrderStore {
  readonly #changes = new Map<bigint, StoredOrder>();
  /** The JSON size of each order this session put, by id, and their sum. */
  readonly #put = new Map<bigint, number>();
  #putBytes = 0;

  constructor(readonly base: OrderBase) {}

  get(id: bigint): StoredOrder | undefined {
    return this.#changes.get(id) ?? this.base.orders.get(id);
  }

  /** Every order, cancelled ones included, in fixture order and then in the order they were added. */
  *all(): IterableIterator<StoredOrder> {
    for (const [id, order] of this.base.orders) yield this.#changes.get(id) ?? order;
    for (const [id, order] of this.#changes) if (!this.base.orders.has(id)) yield order;
  }

  /** A session with changes writes its own list each time: keeping it would cost a copy per session. */
  listBody(): Bytes {
    return this.#changes.size === 0 ? this.base.listBody() : listJson(this.all(), this.base.states);
  }

  listedCount(): number {
    if (this.#changes.size === 0) return this.base.listedCount();
    let count = 0;
    for (const order of this.all()) if (this.base.states.isListed(order.state)) count++;
    return count;
  }

  /** Applies an operation to an order as the state table says: the transition, or its Error (409, 404). */
  apply(id: bigint, operationId: string): Result<TransitionSpec, MockError> {
    const order = this.get(id);
    if (!order) return fail(mockError('orderNotFound', { id }));
    const transition = this.base.states.transition(order.state, operationId);
    if (!transition) {
      throw new Error(`x-petstore-order-states has no transition for ${operationId} from ${order.state}`);
    }
    if (transition.to !== order.state) this.#changes.set(id, { ...order, state: transition.to });
    if (transition.status < 400) return ok(transition);
    const name = transition.code === undefined ? undefined : errorNameFor(transition.code, transition.status);
    if (!name) {
      throw new Error(
        `x-petstore-order-states names ${transition.code} ${transition.status}, not in the mock's error table (errors.ts)`,
      );
    }
    return fail(mockError(name, { id }));
  }

  /** Adds or replaces an order (control endpoint): `true` when new, or why the session cannot hold it. */
  put(order: StoredOrder): Result<boolean, string> {
    const bytes = orderJson(order, this.base.states).length;
    const before = this.#put.get(order.id);
    if (before === undefined && this.#put.size >= PUT_LIMITS.orders) {
      return fail(`This session already holds ${PUT_LIMITS.orders} orders put through /__mock/orders`);
    }
    if (this.#putBytes - (before ?? 0) + bytes > PUT_LIMITS.bytes) {
      return fail(`This session's put orders would exceed ${PUT_LIMITS.bytes / 1024} KiB as JSON`);
    }
    this.#put.set(order.id, bytes);
    this.#putBytes += bytes - (before ?? 0);
    const created = this.get(order.id) === undefined;
    this.#changes.set(order.id, order);
    return ok(created);
  }

  changes(): IterableIterator<StoredOrder> {
    return this.#changes.values();
  }
}
