import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { defaultContract, stateTable } from '../contract/index.js';
import { OrderBase, OrderStore, orderJson, PUT_LIMITS, type StoredOrder } from './order-store.js';

const STATES = stateTable(defaultContract());

const BIG = 2n ** 53n + 1n;

function base(): OrderBase {
  const orders: StoredOrder[] = [
    { id: 1n, petId: 10n, quantity: 1, shipDate: '2026-12-01T10:00:00Z', state: 'pending' },
    { id: 2n, petId: 11n, quantity: 3, shipDate: '2026-11-02T09:30:00Z', state: 'shipped' },
    { id: BIG, state: 'pending' },
    { id: 4n, state: 'cancelled' },
  ];
  return new OrderBase(new Map(orders.map((order) => [order.id, order])), STATES);
}

const ids = (store: OrderStore) =>
  (
    JSON.parse(new TextDecoder().decode(store.listBody()).replace(/"id":(\d+)/g, '"id":"$1"')) as Array<{
      id: string;
    }>
  ).map((order) => order.id);

describe('orderJson', () => {
  it.each([
    {
      name: 'writes every field and derives complete=false for pending',
      given: { id: 1n, petId: 10n, quantity: 1, shipDate: '2026-12-01T10:00:00Z', state: 'pending' },
      want: '{"id":1,"petId":10,"quantity":1,"shipDate":"2026-12-01T10:00:00Z","complete":false}',
    },
    {
      name: 'writes ids above 2^53 as exact digits',
      given: { id: BIG, petId: 2n ** 63n - 1n, state: 'shipped' },
      want: '{"id":9007199254740993,"petId":9223372036854775807,"complete":true}',
    },
  ])('$name', ({ given, want }) => {
    expect(orderJson(given, STATES)).toBe(want);
    expect(JSON.parse(orderJson(given, STATES))).not.toHaveProperty('status');
  });
});

describe('OrderStore', () => {
  it('lists pending and shipped orders but not cancelled ones', () => {
    expect(ids(new OrderStore(base()))).toEqual(['1', '2', String(BIG)]);
  });

  it('cancels a pending order once, then answers 404', () => {
    const store = new OrderStore(base());
    expect(store.apply(1n, 'cancelOrder')).toMatchObject({ ok: true, value: { status: 204 } });
    expect(ids(store)).toEqual(['2', String(BIG)]);
    expect(store.apply(1n, 'cancelOrder')).toMatchObject({ ok: false, error: { spec: { status: 404 } } });
  });

  it('refuses to cancel a shipped order and leaves it listed', () => {
    const store = new OrderStore(base());
    const before = store.listBody();
    const outcome = store.apply(2n, 'cancelOrder');
    expect(outcome).toMatchObject({ ok: false, error: { spec: { code: 'order_already_shipped' } } });
    expect(store.listBody()).toEqual(before);
  });

  it('answers 404 for an unknown id', () => {
    expect(new OrderStore(base()).apply(99n, 'cancelOrder')).toMatchObject({
      ok: false,
      error: { message: 'No order has id 99.' },
    });
  });

  it('never serves a stale list after a change', () => {
    const store = new OrderStore(base());
    const first = store.listBody();
    expect(store.listBody()).toBe(first);
    store.apply(BIG, 'cancelOrder');
    expect(ids(store)).toEqual(['1', '2']);
    store.put({ id: 7n, state: 'shipped' });
    expect(ids(store)).toEqual(['1', '2', '7']);
    store.put({ id: 1n, state: 'cancelled' });
    expect(ids(store)).toEqual(['2', '7']);
  });

  it('keeps sessions apart: one store changing leaves the shared base and other stores alone', () => {
    const shared = base();
    const a = new OrderStore(shared);
    const b = new OrderStore(shared);
    a.apply(1n, 'cancelOrder');
    expect(ids(b)).toEqual(['1', '2', String(BIG)]);
    expect(shared.orders.get(1n)?.state).toBe('pending');
  });

  it('tells a new order from a replaced one', () => {
    const store = new OrderStore(base());
    expect(store.put({ id: 8n, state: 'pending' })).toEqual({ ok: true, value: true });
    expect(store.put({ id: 8n, state: 'shipped' })).toEqual({ ok: true, value: false });
    expect(store.put({ id: 1n, state: 'shipped' })).toEqual({ ok: true, value: false });
    expect([...store.all()].map((order) => order.id)).toEqual([1n, 2n, BIG, 4n, 8n]);
  });
});

describe('what a session may hold of put orders (PUT /__mock/orders)', () => {
  const full = () => {
    const store = new OrderStore(base());
    for (let i = 0; i < PUT_LIMITS.orders; i++) {
      expect(store.put({ id: 1000n + BigInt(i), state: 'pending' }).ok).toBe(true);
    }
    return store;
  };
  it.each([
    {
      name: 'refuses one order more than the limit',
      given: { id: 1n, state: 'shipped' },
      want: /already holds 1000 orders put/,
    },
    {
      name: 'replaces an order it put, however many it holds',
      given: { id: 1000n, state: 'shipped' },
      want: undefined,
    },
  ])('$name', ({ given, want }) => {
    const outcome = full().put(given as StoredOrder);
    if (want === undefined) expect(outcome).toEqual({ ok: true, value: false });
    else expect(!outcome.ok && outcome.error).toMatch(want);
  });

  it('refuses orders past the byte limit, counting a replaced order once', () => {
    const store = new OrderStore(base());
    const big = (id: bigint) => ({
      id,
      shipDate: `2026-12-01T10:00:00.${'1'.repeat(60_000)}Z`,
      state: 'pending',
    });
    for (const id of [1n, 2n, 3n, 4n]) expect(store.put(big(id)).ok, String(id)).toBe(true);
    expect(store.put(big(1n)).ok).toBe(true);
    const outcome = store.put(big(5n));
    expect(!outcome.ok && outcome.error).toMatch(/would exceed 256 KiB/);
    expect(store.get(5n)).toBeUndefined();
  });
});

describe('the memory of sessions that change one order each', () => {
  it('keeps no copy of the list per session: 100 sessions cost far less than one body each', () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const orders = new Map<bigint, StoredOrder>();
    for (let i = 1; i <= 10_000; i++) {
      const id = BigInt(i) * 1_000_003n;
      orders.set(id, { id, petId: 10n, quantity: 1, shipDate: '2026-11-01T09:30:00Z', state: 'pending' });
    }
    const shared = new OrderBase(orders, STATES);
    const bodyBytes = shared.listBody().byteLength;
    const ids = [...orders.keys()];
    const used = () => {
      gc();
      const memory = process.memoryUsage();
      return memory.heapUsed + memory.arrayBuffers;
    };
    const before = used();
    const stores = Array.from({ length: 100 }, (_, n) => {
      const store = new OrderStore(shared);
      store.apply(ids[n] as bigint, 'cancelOrder');
      // The list is right: the shared body less the one cancelled order.
      expect(store.listBody().byteLength).toBe(
        bodyBytes - orderJson(orders.get(ids[n] as bigint) as StoredOrder, STATES).length - 1,
      );
      return store;
    });
    const retained = used() - before;
    // A copy each would be 100 bodies (about 90 MB); the overlays cost a few hundred bytes each. The bound
    // leaves room for what the garbage collector has not given back yet (Node 24 kept 16 bodies' worth once).
    expect(retained).toBeLessThan(30 * bodyBytes);
    expect(stores).toHaveLength(100);
  });
});
