/**
 * D19 through every door: a read-only run leaves the orders of a server as they were even when the server
 * takes the order id from the query or the body instead of the path (a framework's merged input, as
 * Laravel's `$request->orderId`), or creates an order on any POST with the key. Each seed draws other
 * requests, so a range of seeds is run with a small budget and only the fuzz phase.
 */
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import {
  type Behaviour,
  behaviour,
  CORRECT,
  createStore,
  MOCK_LIKE_READINGS,
  seedOrders,
  startTarget,
  TARGET_KEY,
  type TargetOrder,
} from '../../../test-support/servers/reference-server.js';
import { runSuiteAgainst } from '../../../test-support/servers/run-suite.js';
import { stringifyExactJson } from '../../contract/index.js';

/** PHP's `(int)`: the leading integer of a value, 0 when there is none (`(int) "x"` is 0). */
function phpInt(value: unknown): bigint {
  const prefix = /^\s*[+-]?[0-9]+/.exec(String(value))?.[0];
  return prefix === undefined ? 0n : BigInt(prefix.trim());
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  let text = '';
  for await (const chunk of req) text += String(chunk);
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The reference server, except that a write with the key to a documented path takes an order id from the
 * query (the first value, whatever its name: the keenest reader, so it stands for `?orderId=3` and `?id=3`)
 * and from the first field of a JSON object body, and cancels the first that names a pending order; a POST
 * there places an order. One server with every door open changes an order whenever a server with one would.
 */
const everyDoor: Behaviour = behaviour(MOCK_LIKE_READINGS, {
  async handle(b, request, store) {
    const writes = request.method !== 'GET' && /^\/store\/orders(\/[^/]+)?$/.test(request.path);
    if (!writes || !b.authorized(b, request.authorization)) return CORRECT.handle(b, request, store);
    return {
      async raw(req, res) {
        const body = await readBody(req);
        if (request.method === 'POST') {
          store.orders.push({
            id: 100_000n + BigInt(store.orders.length),
            petId: 10n,
            quantity: 1,
            status: 'pending',
          });
          res.writeHead(201, { 'content-type': 'application/json' }).end('{}');
          return;
        }
        const fromQuery = [...new URL(req.url ?? '/', 'http://target.invalid').searchParams.values()][0];
        const fromBody =
          body !== null && typeof body === 'object' && !Array.isArray(body)
            ? Object.values(body)[0]
            : undefined;
        const order = [fromQuery, fromBody]
          .filter((value) => value !== undefined && value !== null)
          .map((value) => store.find(phpInt(value)))
          .find((named) => named?.status === 'pending');
        if (order) {
          order.status = 'cancelled';
          res.writeHead(204).end();
          return;
        }
        const reply = await CORRECT.handle(b, request, store);
        if ('raw' in reply) return reply.raw(req, res);
        res.writeHead(reply.status, reply.headers ?? {}).end(reply.body ?? '');
      },
    };
  },
});

const pending = (id: bigint): TargetOrder => ({ id, petId: 10n, quantity: 1, status: 'pending' });
/** Every id from 0 to 200 an order, so that a generated number (-5 to 200) most often names one (PHP reads `"x"` as 0). */
function dense(): TargetOrder[] {
  const seeds = seedOrders();
  const taken = new Set(seeds.map((o) => o.id));
  const bait = Array.from({ length: 201 }, (_, i) => BigInt(i)).filter((id) => !taken.has(id));
  return [...seeds, ...bait.map(pending)];
}

const SEEDS = Array.from({ length: 20 }, (_, i) => i + 1);

describe('the server with every door open', () => {
  it('cancels the order a query or a body names, and places one on POST (so the test below can fail)', async () => {
    const store = createStore(dense());
    const target = await startTarget(everyDoor, store);
    const send = (method: string, path: string, body?: string) =>
      fetch(`${target.baseUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${TARGET_KEY}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body }),
      });
    try {
      const statuses = [
        (await send('DELETE', '/store/orders/abc?orderId=5')).status,
        (await send('DELETE', '/store/orders/abc', '{"id":"8x"}')).status,
        (await send('POST', '/store/orders', '{}')).status,
      ];
      expect(statuses).toEqual([204, 204, 201]);
      expect(store.find(5n)?.status).toBe('cancelled');
      expect(store.find(8n)?.status).toBe('cancelled');
      expect(store.orders.length).toBe(dense().length + 1);
    } finally {
      await target.close();
    }
  });
});

describe('no seed of a read-only fuzz phase changes the orders of a server that reads ids elsewhere (D19)', () => {
  it('a server that takes the id from the query or the JSON body, and places an order on POST', async () => {
    const changedBy: number[] = [];
    for (const seed of SEEDS) {
      const store = createStore(dense());
      const before = stringifyExactJson(store.orders as never);
      await runSuiteAgainst(everyDoor, { destructive: false, only: ['fuzz'], fuzzRequests: 20, seed }, store);
      if (stringifyExactJson(store.orders as never) !== before) changedBy.push(seed);
    }
    expect(changedBy).toEqual([]);
  }, 60_000);
});
