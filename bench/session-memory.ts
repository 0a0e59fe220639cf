/**
 * What sessions that each change one order cost, kept after a list of each (issue 18, item 8): `n`
 * sessions over a fixture of `orders` orders, each cancelling one order and listing. Prints the retained
 * memory after a full GC. Run: `node --expose-gc --import tsx bench/session-memory.ts [orders] [sessions]`.
 */

import { defaultContract, stateTable } from '../src/contract/index.js';
import type { FixtureSet } from '../src/mock/fixtures.js';
import { OrderBase, type StoredOrder } from '../src/mock/order-store.js';
import { Sessions } from '../src/mock/sessions.js';

const count = Number(process.argv[2] ?? 130_000);
const sessionCount = Number(process.argv[3] ?? 100);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');

const orders = new Map<bigint, StoredOrder>();
for (let i = 1; i <= count; i++) {
  const id = BigInt(i) * 1_000_003n;
  orders.set(id, {
    id,
    petId: BigInt(10 + (i % 50)),
    quantity: 1 + (i % 4),
    shipDate: '2026-11-01T09:30:00Z',
    state: i % 2 ? 'pending' : 'shipped',
  });
}
const fixtures = {
  source: 'bench',
  apiKeys: [],
  orders: new OrderBase(orders, stateTable(defaultContract())),
  pets: new Map(),
  deprecationHeader: '@0',
  sunsetHeader: 'x',
} as unknown as FixtureSet;
const sessions = new Sessions(fixtures, { maxSessions: sessionCount, logSize: 200 });
const bodyBytes = fixtures.orders.listBody().byteLength;

const used = () => {
  gc();
  const memory = process.memoryUsage();
  return memory.heapUsed + memory.arrayBuffers;
};
const before = used();
const ids = [...orders.keys()];
for (let n = 0; n < sessionCount; n++) {
  const session = sessions.get(`s${n}`);
  session.orders.apply(ids[(n * 2) % ids.length] as bigint, 'cancelOrder');
  session.orders.listBody();
}
const after = used();
const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`;
console.log(
  `${count} orders (list body ${mb(bodyBytes)}), ${sessionCount} sessions each cancelling one order and listing: ${mb(after - before)} retained (${mb((after - before) / sessionCount)} per session)`,
);
