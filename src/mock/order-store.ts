/**
 * The orders of one session. Orders live in a Map keyed by their exact int64 id (D8). A session shares
 * the fixtures' orders and keeps only its own changes, so a hundred sessions over a large fixture cost
 * a hundred small maps, not a hundred copies. Its list body is pieced together per request from the
 * fixtures' shared bytes and its changes: the pieces (views of the shared bytes plus its own orders) are
 * cached until the session's state changes, never a whole copy of the body, which would cost a hundred
 * copies of a 12 MB list (1 GB) for a hundred sessions that each cancelled one order. Every mutation goes
 * through `#set`, which drops the cache.
 */
import type { TransitionSpec } from '../contract/index.js';
import { fail, ok, type Result } from '../result.js';
import { type Bytes, utf8 } from './bytes.js';
import { errorNameFor, type MockError, mockError } from './errors.js';
import type { OrderState, OrderStateTable } from './order-state.js';

/** An order as the mock keeps it: the published fields, exact, plus its internal state (D1). */
export interface StoredOrder {
  readonly id: bigint;
  readonly petId?: bigint;
  readonly quantity?: number;
  readonly shipDate?: string;
  readonly state: OrderState;
}

/**
 * The published Order (§2) of a stored order: no `status` field, `complete` from the state (D1), ids as
 * exact digits. Hand-written because it runs for every listed order and JSON.stringify cannot write
 * bigints.
 *
 * @example orderJson({ id: 2n ** 53n + 1n, state: 'shipped' }, states) // '{"id":9007199254740993,"complete":true}'
 */
export function orderJson(order: StoredOrder, states: OrderStateTable): string {
  const petId = order.petId === undefined ? '' : `,"petId":${order.petId}`;
  const quantity = order.quantity === undefined ? '' : `,"quantity":${order.quantity}`;
  const shipDate = order.shipDate === undefined ? '' : `,"shipDate":${JSON.stringify(order.shipDate)}`;
  return `{"id":${order.id}${petId}${quantity}${shipDate},"complete":${states.complete(order.state)}}`;
}

const COMMA = 0x2c;

/** `[` + the parts joined by commas + `]`, as bytes. */
function jsonArray(parts: readonly Uint8Array[]): Bytes {
  let length = 2 + Math.max(0, parts.length - 1);
  for (const part of parts) length += part.length;
  const out = new Uint8Array(length);
  out[0] = 0x5b;
  let at = 1;
  for (const [index, part] of parts.entries()) {
    if (index > 0) out[at++] = COMMA;
    out.set(part, at);
    at += part.length;
  }
  out[at] = 0x5d;
  return out;
}

/**
 * The fixtures' orders, shared read-only by every session, with their list body computed once.
 *
 * The body is kept as bytes with each order's place in it, not as one string per order: a hundred
 * thousand small strings cost four times the body itself. A session with a few changes copies the
 * unchanged runs of the body and writes only its changed orders.
 */
export class OrderBase {
  readonly orders: ReadonlyMap<bigint, StoredOrder>;
  /** The document's state table: which states are listed, and what they publish as `complete`. */
  readonly states: OrderStateTable;
  #body: Bytes | undefined;
  /** Order i (in fixture order) is `#body[#starts[i], #ends[i])`; empty when it is not listed. */
  #starts: Uint32Array | undefined;
  #ends: Uint32Array | undefined;

  constructor(orders: ReadonlyMap<bigint, StoredOrder>, states: OrderStateTable) {
    this.orders = orders;
    this.states = states;
  }

  listBody(): Bytes {
    if (this.#body) return this.#body;
    const starts = new Uint32Array(this.orders.size);
    const ends = new Uint32Array(this.orders.size);
    const parts: string[] = [];
    let at = 1;
    let index = 0;
    for (const order of this.orders.values()) {
      if (this.states.isListed(order.state)) {
        const json = orderJson(order, this.states);
        if (parts.length > 0) at++;
        parts.push(json);
        starts[index] = at;
        at += json.length;
      } else {
        starts[index] = at;
      }
      ends[index] = at;
      index++;
    }
    this.#body = utf8(`[${parts.join(',')}]`);
    // Offsets count characters; they are bytes too when every character is ASCII, as ids, numbers,
    // dates and states are. Otherwise (a date with non-ASCII text cannot pass the schema, but still)
    // sessions write their whole body.
    if (this.#body.length === at + 1) {
      this.#starts = starts;
      this.#ends = ends;
    }
    return this.#body;
  }

  /**
   * The list body of a session whose changes are `changes` (by id): unchanged runs copied from the
   * fixtures' body, changed and added orders written anew.
   */
  listPartsWith(changes: ReadonlyMap<bigint, StoredOrder>): Uint8Array[] {
    const body = this.listBody();
    const starts = this.#starts;
    const ends = this.#ends;
    const parts: Uint8Array[] = [];
    const write = (order: StoredOrder) => {
      if (this.states.isListed(order.state)) parts.push(utf8(orderJson(order, this.states)));
    };
    if (!starts || !ends) {
      for (const [id, order] of this.orders) write(changes.get(id) ?? order);
    } else {
      let runStart = -1;
      let runEnd = -1;
      const endRun = () => {
        if (runStart >= 0) parts.push(body.subarray(runStart, runEnd));
        runStart = -1;
      };
      let index = 0;
      for (const id of this.orders.keys()) {
        const changed = changes.get(id);
        if (changed !== undefined) {
          endRun();
          write(changed);
        } else if ((ends[index] as number) > (starts[index] as number)) {
          if (runStart < 0) runStart = starts[index] as number;
          runEnd = ends[index] as number;
        }
        index++;
      }
      endRun();
    }
    for (const [id, order] of changes) if (!this.orders.has(id)) write(order);
    return parts;
  }
}

/**
 * What one session may hold of orders put through `PUT /__mock/orders/{id}` (added or replaced), so that
 * no stream of PUTs grows the mock without end (a million of them took 495 MB): a test needs a handful.
 * With the named-session cap (100) this bounds every session's puts together at about 100 MB.
 */
export const PUT_LIMITS = { orders: 1000, bytes: 256 * 1024 } as const;

export class OrderStore {
  readonly #base: OrderBase;
  /** Orders this session added or changed, by id. */
  readonly #changes = new Map<bigint, StoredOrder>();
  /** The JSON size of each order this session put, by id, and their sum. */
  readonly #put = new Map<bigint, number>();
  #putBytes = 0;
  /** The pieces of the list body (see the module comment), until the next change. */
  #parts: Uint8Array[] | undefined;

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
    this.#parts ??= this.#base.listPartsWith(this.#changes);
    return jsonArray(this.#parts);
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
    const transition = this.#base.states.transition(order.state, operationId);
    if (!transition) {
      throw new Error(`x-petstore-order-states has no transition for ${operationId} from ${order.state}`);
    }
    if (transition.to !== order.state) this.#set({ ...order, state: transition.to });
    if (transition.status < 400) return ok(transition);
    const name = transition.code === undefined ? undefined : errorNameFor(transition.code, transition.status);
    if (!name) {
      throw new Error(
        `x-petstore-order-states names ${transition.code} ${transition.status}, not in the mock's error table (errors.ts)`,
      );
    }
    return fail(mockError(name, { id }));
  }

  /**
   * Adds or replaces an order (control endpoint): `true` when it is new, or why the session cannot hold
   * it ({@link PUT_LIMITS}).
   *
   * @example store.put({ id: 7n, state: 'pending' }) // { ok: true, value: true }
   */
  put(order: StoredOrder): Result<boolean, string> {
    const bytes = orderJson(order, this.#base.states).length;
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
    this.#set(order);
    return ok(created);
  }

  /** The orders this session changed or added, in the order it first changed them. */
  changes(): IterableIterator<StoredOrder> {
    return this.#changes.values();
  }

  #set(order: StoredOrder): void {
    this.#changes.set(order.id, order);
    this.#parts = undefined;
  }
}
