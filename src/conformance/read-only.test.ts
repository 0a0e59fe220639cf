/**
 * D19: a run without --destructive changes nothing on any server, however lenient its id parser, and
 * however little of its list the suite could read. The state is the target's own store, read after the run.
 */
import { describe, expect, it } from 'vitest';
import { BROKEN_SERVERS } from '../../test-support/servers/broken-servers.js';
import { CARELESS_PARSERS } from '../../test-support/servers/careless-parsers.js';
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
} from '../../test-support/servers/reference-server.js';
import { runSuiteAgainst } from '../../test-support/servers/run-suite.js';
import { stringifyExactJson } from '../contract/index.js';
import { runConformance } from './runner.js';

/** Orders where the fixed malformed ids of old runs landed: 1.5 → 1, 12abc → 12, 0x1A → 26, 1e3 → 1000. */
function baitedOrders(): TargetOrder[] {
  const bait = (id: bigint): TargetOrder => ({ id, petId: 10n, quantity: 1, status: 'pending' });
  return [...seedOrders(), bait(12n), bait(26n), bait(1000n), bait(424_242_424n), bait(2n ** 63n - 1n)];
}

const lenient = (name: string): Behaviour => {
  const server = BROKEN_SERVERS.find((s) => s.name === name);
  if (!server) throw new Error(`no broken server ${name}`);
  return server.behaviour;
};

/** Reads ids the way BigInt does: hex, surrounding spaces, a leading plus all name orders. */
const bigintParser = behaviour(MOCK_LIKE_READINGS, {
  parseOrderId(_b, raw) {
    try {
      const id = BigInt(raw);
      return id === BigInt.asIntN(64, id) ? id : null;
    } catch {
      return null;
    }
  },
});

/** Clamps out-of-range ids to int64, as C's strtoll does. */
const clampingParser = behaviour(MOCK_LIKE_READINGS, {
  parseOrderId(_b, raw) {
    const prefix = /^-?[0-9]+/.exec(raw)?.[0];
    if (prefix === undefined) return null;
    const id = BigInt(prefix);
    return id > 2n ** 63n - 1n ? 2n ** 63n - 1n : id < -(2n ** 63n) ? -(2n ** 63n) : id;
  },
});

/** A list longer than the suite reads (the run's cap is set to 200 bytes): no id is known to be unused. */
const oversizedList = behaviour(MOCK_LIKE_READINGS, {
  listOrders(b, store) {
    const listed = CORRECT.listOrders(b, store);
    return 'raw' in listed ? listed : { ...listed, body: `${listed.body ?? ''}${' '.repeat(300)}` };
  },
});

const careless = (read: (raw: string) => bigint | null): Behaviour =>
  behaviour(MOCK_LIKE_READINGS, { parseOrderId: (_b, raw) => read(raw) });

/** Every small id but 0 a pending order: where a careless reading of a generated id most often lands (with 0 taken too, no id would be safe: atoi reads letters as 0). */
function denseOrders(): TargetOrder[] {
  const seeds = seedOrders();
  const taken = new Set(seeds.map((o) => o.id));
  const bait = Array.from({ length: 299 }, (_, i) => BigInt(i + 1)).filter((id) => !taken.has(id));
  return [...seeds, ...bait.map((id): TargetOrder => ({ id, petId: 10n, quantity: 1, status: 'pending' }))];
}

describe('a read-only run leaves every order as it was', () => {
  it.each(CARELESS_PARSERS.map((p) => [p.label, careless(p.read)] as const))(
    'with the fuzz phase on %s',
    async (_label, server) => {
      const store = createStore(denseOrders());
      const before = stringifyExactJson(store.orders as never);
      // Only the fuzz phase: the malformed-id probes have their own tests above.
      const result = await runSuiteAgainst(
        server,
        { destructive: false, only: ['fuzz'], fuzzRequests: 150 },
        store,
      );
      expect(result.fuzz?.sent).toBeGreaterThan(100);
      expect(stringifyExactJson(store.orders as never)).toBe(before);
    },
  );

  it.each(CARELESS_PARSERS.map((p) => [p.label, careless(p.read)] as const))(
    'and so does a destructive run, but for the named pending orders, on %s',
    async (_label, server) => {
      const store = createStore(baitedOrders());
      const untouched = () =>
        stringifyExactJson(
          store.orders.filter((o) => !['3', '5', '7', '9007199254740993'].includes(String(o.id))) as never,
        );
      const before = untouched();
      await runSuiteAgainst(server, { only: ['fuzz'], fuzzRequests: 150 }, store);
      expect(untouched()).toBe(before);
    },
  );

  it.each([
    ['a parseInt parser (1.5 → 1, 12abc → 12)', lenient('malformed-id-parseint'), {}],
    ['a 64-bit wrapping parser (2^64 + 1 → 1)', lenient('malformed-id-wraps-uint64'), {}],
    ['a parser that reads ids through a double', lenient('ids-through-double'), {}],
    ['a BigInt parser (0x1A → 26)', bigintParser, {}],
    ['a clamping parser (2^63 → 2^63 − 1)', clampingParser, {}],
    ['a server whose list is over the size cap', oversizedList, { maxBodyBytes: 200 }],
    [
      'a parseInt parser whose list is over the size cap',
      behaviour(MOCK_LIKE_READINGS, {
        ...lenient('malformed-id-parseint'),
        listOrders: oversizedList.listOrders,
      }),
      { maxBodyBytes: 200 },
    ],
  ] as const)('on %s', async (_label, server, extra) => {
    const store = createStore(baitedOrders());
    const before = stringifyExactJson(store.orders as never);
    const result = await runSuiteAgainst(server, { destructive: false, fuzzRequests: 200, ...extra }, store);
    expect(result.unreachable).toBeNull();
    expect(result.checks.length).toBeGreaterThan(40);
    expect(stringifyExactJson(store.orders as never)).toBe(before);
  });

  it('skips, with the reason, every cancel of an id it cannot know to be unused', async () => {
    const target = await startTarget(oversizedList, createStore(baitedOrders()));
    try {
      const result = await runConformance({ baseUrl: target.baseUrl, apiKey: TARGET_KEY, maxBodyBytes: 200 });
      const skipped = result.checks.filter((c) => c.skip?.reason.startsWith('the list was not read in full'));
      expect(skipped.map((c) => c.id)).toEqual(
        expect.arrayContaining([
          'cancel.unknown-order',
          'auth.cancelOrder.wrong-key',
          'cancel.malformed-id.decimal',
        ]),
      );
    } finally {
      await target.close();
    }
  });
});

describe('a destructive run catches the lenient parsers a read-only run leaves alone', () => {
  it.each([
    ['a parseInt parser', lenient('malformed-id-parseint'), 'cancel.malformed-id.decimal'],
    ['a BigInt parser', bigintParser, 'cancel.malformed-id.hex'],
  ] as const)('%s', async (_label, server, check) => {
    const result = await runSuiteAgainst(server);
    const caught = result.checks.find((c) => c.id === check);
    expect(caught?.outcome).toBe('FAIL');
    expect(caught?.message).toMatch(/^order 7 left the list after DELETE \/store\/orders\/\S+ answered 204/);
  });
});
