/**
 * D19: a run without --destructive changes nothing on any server, however lenient its id parser, and
 * however little of its list the suite could read. The state is the target's own store, read after the run.
 */
import { describe, expect, it } from 'vitest';
import { withBackgroundWriter } from '../../test-support/servers/background-writer.js';
import { BROKEN_SERVERS } from '../../test-support/servers/broken-servers.js';
import { baitedOrders, CARELESS_PARSERS } from '../../test-support/servers/careless-parsers.js';
import { CORRECT_SERVERS } from '../../test-support/servers/correct-servers.js';
import {
  type Behaviour,
  behaviour,
  CORRECT,
  createStore,
  MOCK_LIKE_READINGS,
  PENDING_IDS,
  SHIPPED_IDS,
  seedOrders,
  startTarget,
  TARGET_KEY,
  type TargetOrder,
} from '../../test-support/servers/reference-server.js';
import { ECHOES_KEY, MISBEHAVIOURS, onListOnly } from '../../test-support/servers/robustness-servers.js';
import { runSuiteAgainst } from '../../test-support/servers/run-suite.js';
import { stringifyExactJson } from '../contract/index.js';
import { runConformance } from './runner.js';

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

/**
 * Reads an id every careless and lenient way at once, and takes the first reading that names a pending order
 * (else any order): it cancels whatever any one of those parsers would, so one fuzz run stands for each.
 */
const everyReading = behaviour(MOCK_LIKE_READINGS, {
  handle(b, request, store) {
    const readers = [
      ...CARELESS_PARSERS.map((p) => p.read),
      ...[
        lenient('malformed-id-parseint'),
        lenient('malformed-id-wraps-uint64'),
        lenient('ids-through-double'),
      ]
        .concat([bigintParser, clampingParser])
        .map((parser) => (raw: string) => parser.parseOrderId(parser, raw)),
    ];
    const parseOrderId = (_b: Behaviour, raw: string) => {
      const readings = readers.map((read) => read(raw)).filter((id) => id !== null);
      const names = (pending: boolean) => (id: bigint) =>
        pending ? store.find(id)?.status === 'pending' : store.find(id) !== undefined;
      return readings.find(names(true)) ?? readings.find(names(false)) ?? readings[0] ?? null;
    };
    return CORRECT.handle({ ...b, parseOrderId }, request, store);
  },
});

/**
 * Every small id but 0 a pending order, where a careless reading of a generated id most often lands (with 0
 * taken too, no id would be safe: atoi reads letters as 0), and the baits of the lenient parsers.
 */
function denseOrders(): TargetOrder[] {
  const seeds = baitedOrders();
  const taken = new Set(seeds.map((o) => o.id));
  const bait = Array.from({ length: 299 }, (_, i) => BigInt(i + 1)).filter((id) => !taken.has(id));
  return [...seeds, ...bait.map((id): TargetOrder => ({ id, petId: 10n, quantity: 1, status: 'pending' }))];
}

describe('a read-only run leaves every order as it was', () => {
  it('with the fuzz phase on a server that reads ids every careless way', async () => {
    const store = createStore(denseOrders());
    const before = stringifyExactJson(store.orders as never);
    // Only the fuzz phase: the malformed-id probes have their own tests below.
    const result = await runSuiteAgainst(
      everyReading,
      { destructive: false, only: ['fuzz'], fuzzRequests: 150 },
      store,
    );
    expect(result.fuzz?.sent).toBeGreaterThan(100);
    expect(stringifyExactJson(store.orders as never)).toBe(before);
  });

  it('on a server that cancels through each of those readings (so the two fuzz runs can fail)', async () => {
    const store = createStore(denseOrders());
    const target = await startTarget(everyReading, store);
    try {
      // Digits picked from letters, a fullwidth number, 2^32 + 3, hex, a decimal, 2^63 clamped.
      const raws = ['a1b2', '１３', '4294967299', '0x1A', '1.5', '9223372036854775808'];
      const statuses = [];
      for (const raw of raws) {
        const answer = await fetch(`${target.baseUrl}/store/orders/${encodeURIComponent(raw)}`, {
          method: 'DELETE',
          headers: { authorization: `Bearer ${TARGET_KEY}` },
        });
        statuses.push(answer.status);
      }
      expect(statuses).toEqual(raws.map(() => 204));
      expect(store.orders.filter((o) => o.status === 'cancelled').map((o) => String(o.id))).toEqual(
        expect.arrayContaining(['12', '13', '3', '9223372036854775807']),
      );
    } finally {
      await target.close();
    }
  });

  it('with order 0 listed, on a server that reads letters as 0 (atoi)', async () => {
    const atoi = CARELESS_PARSERS.find((p) => p.label.startsWith("C's strtol"));
    if (!atoi) throw new Error('no atoi parser');
    const store = createStore([...seedOrders(), { id: 0n, petId: 10n, quantity: 1, status: 'pending' }]);
    const result = await runSuiteAgainst(careless(atoi.read), { destructive: false, fuzzRequests: 0 }, store);
    expect(result.checks.find((c) => c.id === 'cancel.malformed-id.letters')?.outcome).toBe('SKIP');
    expect(store.find(0n)?.status).toBe('pending');
  });

  it('and so does a destructive fuzz phase, but for the named pending orders', async () => {
    const store = createStore(denseOrders());
    const untouched = () =>
      stringifyExactJson(store.orders.filter((o) => !PENDING_IDS.includes(String(o.id))) as never);
    const before = untouched();
    const result = await runSuiteAgainst(everyReading, { only: ['fuzz'], fuzzRequests: 150 }, store);
    expect(result.fuzz?.sent).toBeGreaterThan(100);
    expect(untouched()).toBe(before);
  });

  // The broken servers' parsers (parseInt, 64-bit wrapping, through a double) are run read-only in
  // broken-servers.test.ts; the fuzz phase meets every parser above. With the list over the cap, no id is
  // known to be unused: the fuzz phase is on there, on the nastiest parser.
  it.each([
    ['a BigInt parser (0x1A → 26)', bigintParser, {}],
    ['a clamping parser (2^63 → 2^63 − 1)', clampingParser, {}],
    ['a server whose list is over the size cap', oversizedList, { maxBodyBytes: 200 }],
    [
      'a parseInt parser whose list is over the size cap, with the fuzz phase',
      behaviour(MOCK_LIKE_READINGS, {
        ...lenient('malformed-id-parseint'),
        listOrders: oversizedList.listOrders,
      }),
      { maxBodyBytes: 200, fuzzRequests: 200 },
    ],
  ] as const)('on %s', async (_label, server, extra) => {
    const store = createStore(baitedOrders());
    const before = stringifyExactJson(store.orders as never);
    const result = await runSuiteAgainst(server, { destructive: false, fuzzRequests: 0, ...extra }, store);
    expect(result.unreachable).toBeNull();
    expect(result.checks.length).toBeGreaterThan(40);
    expect(stringifyExactJson(store.orders as never)).toBe(before);
  });

  it('skips, with the reason, every cancel of an id it cannot know to be unused', async () => {
    const target = await startTarget(oversizedList, createStore(baitedOrders()));
    try {
      const result = await runConformance({
        baseUrl: target.baseUrl,
        apiKey: TARGET_KEY,
        maxBodyBytes: 200,
        fuzzRequests: 0,
      });
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
  // BigInt reads `0x7` as 7, the same integer in another notation: a warning that names it (D9).
  it.each([
    [
      'a parseInt parser',
      lenient('malformed-id-parseint'),
      'cancel.malformed-id.decimal',
      'FAIL',
      /^order 7 left the list after DELETE \/store\/orders\/7\.5 answered 204/,
    ],
    [
      'a BigInt parser',
      bigintParser,
      'cancel.malformed-id.hex',
      'WARN',
      /^DELETE \/store\/orders\/0x7 answered 204: the server read "0x7" as pending order 7, the same integer/,
    ],
  ] as const)('%s', async (_label, server, check, outcome, message) => {
    const result = await runSuiteAgainst(server, { only: ['cancel.malformed-id'], fuzzRequests: 0 });
    const caught = result.checks.find((c) => c.id === check);
    expect(caught?.outcome).toBe(outcome);
    expect(caught?.message).toMatch(message);
  });
});

/**
 * Servers with no lenient parser: the broken servers are run read-only in broken-servers.test.ts, and the
 * fuzz phase's requests are proven harmless on every lenient parser above.
 */
const PROOF_SET: ReadonlyArray<readonly [string, Behaviour]> = [
  ...CORRECT_SERVERS.map((s) => [`correct: ${s.name}`, s.behaviour] as const),
  ...MISBEHAVIOURS.filter((m) => m.name !== 'hang').map(
    (m) => [`list ${m.name}`, onListOnly(m.raw)] as const,
  ),
  ['echoes the key', ECHOES_KEY],
];

describe('no read-only run changes an order on any server of the proof set (D19)', () => {
  it.each(PROOF_SET)('%s', async (_name, server) => {
    const store = createStore(baitedOrders());
    const before = stringifyExactJson(store.orders as never);
    const result = await runSuiteAgainst(server, { destructive: false, fuzzRequests: 0 }, store);
    expect(result.checks.length).toBeGreaterThan(40);
    expect(stringifyExactJson(store.orders as never)).toBe(before);
  });

  it('with another client at work, only that client changes orders', async () => {
    const store = createStore([
      ...baitedOrders(),
      { id: 800n, petId: 10n, quantity: 1, status: 'pending' },
      { id: 801n, petId: 10n, quantity: 1, status: 'pending' },
    ]);
    const target = await withBackgroundWriter(behaviour(MOCK_LIKE_READINGS), { everyMs: 20 }, store);
    const before = stringifyExactJson(store.orders.filter((o) => o.id < 800n) as never);
    try {
      const result = await runConformance({
        baseUrl: target.baseUrl,
        apiKey: TARGET_KEY,
        pendingOrders: PENDING_IDS,
        shippedOrders: SHIPPED_IDS,
        liveProbeMs: 60,
      });
      expect(result.outcome).toBe('pass');
    } finally {
      await target.close();
    }
    expect(stringifyExactJson(store.orders.filter((o) => o.id < 800n) as never)).toBe(before);
  });
});

/** Only the check of the spellings, which sends them. */
const SPELLINGS = { only: ['cancel.shipped-order.malformed-spellings'], fuzzRequests: 0 };

describe('malformed spellings of a named shipped id catch a lenient parser read-only (D9, D19)', () => {
  // Spellings of the same integer (`2.0`, `02`, ` 2`, `0x2`) read as order 2 are warnings (D9); `2abc` fails.
  it.each([
    ['a parseInt parser', lenient('malformed-id-parseint'), ['2abc', '2.0', '02', '%202'], 'FAIL'],
    ['a 64-bit wrapping parser', lenient('malformed-id-wraps-uint64'), ['02'], 'WARN'],
    ['a BigInt parser', bigintParser, ['02', '%202', '0x2'], 'WARN'],
    ['a clamping parser', clampingParser, ['2abc', '2.0', '02'], 'FAIL'],
  ] as const)('%s is caught by a read-only run', async (_label, server, caught, outcome) => {
    const result = await runSuiteAgainst(server, { destructive: false, shippedOrders: ['2'], ...SPELLINGS });
    const check = result.checks.find((c) => c.id === 'cancel.shipped-order.malformed-spellings');
    expect(check?.outcome).toBe(outcome);
    expect(check?.citation).toContain('D19');
    const answered409 = check?.findings
      .filter((f) => f.actual?.status === 409)
      .map((f) => f.request?.url.split('/store/orders/')[1]);
    expect(answered409).toEqual(caught);
    expect(check?.findings[0]?.message).toMatch(
      outcome === 'FAIL'
        ? /"2abc" \(a suffix\) as shipped order 2, a lenient id parser \(D9, D19\)$/
        : /as shipped order 2, the same integer in another notation/,
    );
  });

  it('passes a correct server, which refuses each spelling as malformed', async () => {
    const result = await runSuiteAgainst(behaviour(MOCK_LIKE_READINGS), { destructive: false, ...SPELLINGS });
    const check = result.checks.find((c) => c.id === 'cancel.shipped-order.malformed-spellings');
    expect(check?.outcome).toBe('PASS');
    expect(check?.message).toBe('10 malformed spelling(s) refused as malformed');
  });

  it('does not send a spelling that a lenient parser could read as another listed order', async () => {
    // 020 is 16 in octal and 0x14 is 14 once its letters are stripped: both orders are listed.
    const order = (id: bigint, status: 'pending' | 'shipped'): TargetOrder => ({
      id,
      petId: 10n,
      quantity: 1,
      status,
    });
    const store = createStore([
      ...seedOrders(),
      order(20n, 'shipped'),
      order(16n, 'pending'),
      order(14n, 'pending'),
    ]);
    const result = await runSuiteAgainst(
      lenient('malformed-id-parseint'),
      { destructive: false, shippedOrders: ['20'], ...SPELLINGS },
      store,
    );
    const check = result.checks.find((c) => c.id === 'cancel.shipped-order.malformed-spellings');
    expect(check?.notes).toEqual(
      expect.arrayContaining([
        'not sent "020" (a leading zero): a lenient parser could read it as order 16, which the list shows',
        'not sent "0x14" (hex): a lenient parser could read it as order 14, which the list shows',
      ]),
    );
    expect(store.find(16n)?.status).toBe('pending');
    expect(store.find(14n)?.status).toBe('pending');
  });
});

describe('a destructive rerun without fresh pending ids', () => {
  it('says the orders are no longer pending, as a setup note, and blames nothing on the server', async () => {
    const store = createStore();
    await runSuiteAgainst(behaviour(MOCK_LIKE_READINGS), { fuzzRequests: 0 }, store);
    const rerun = await runSuiteAgainst(behaviour(MOCK_LIKE_READINGS), { fuzzRequests: 0 }, store);
    expect(rerun.checks.filter((c) => c.outcome === 'FAIL').map((c) => `${c.id}: ${c.message}`)).toEqual([]);
    expect(rerun.outcome).toBe('pass');
    // The first run cancelled 3 (cancel.pending-order) and 5 (cancel.concurrent); 7 and 9007199254740993
    // are still pending and go to those two checks, so auth.cancelOrder.pending-order has none left.
    const starved = rerun.checks.find((c) => c.id === 'auth.cancelOrder.pending-order');
    expect(starved?.outcome).toBe('SKIP');
    expect(starved?.skip?.reason).toMatch(
      /^order 3 is no longer pending \(cancelled by an earlier run\?\): the first list did not show it and its cancel answered 404; order 5 is no longer pending/,
    );
    expect(rerun.checks.find((c) => c.id === 'cancel.pending-order')?.notes).toContain(
      'used pending order 7',
    );
    const listed = rerun.checks.find((c) => c.id === 'list.includes-given-orders');
    expect(listed?.outcome).toBe('PASS');
    expect(listed?.notes).toContain(
      'order 3 is no longer pending (cancelled by an earlier run?): not listed, and its cancel was refused; name a fresh pending order',
    );
  });
});
