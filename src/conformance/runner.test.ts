import { describe, expect, it } from 'vitest';
import { BROKEN_SERVERS } from '../../test-support/servers/broken-servers.js';
import {
  behaviour,
  MOCK_LIKE_READINGS,
  startTarget,
  TARGET_KEY,
} from '../../test-support/servers/reference-server.js';
import { buildContract } from '../contract/compile.js';
import { defaultContract } from '../contract/index.js';
import { CHECKS, PENDING_PRIORITY } from './checks/index.js';
import type { ConformanceOptions } from './options.js';
import { ConformanceOptionsError } from './options.js';
import { runConformance, selectChecks } from './runner.js';
import { optionsFromEnv } from './vitest/describe-conformance.js';

const contract = defaultContract();

describe('selecting checks', () => {
  it.each([
    ['an exact id', ['list.orders'], ['list.orders']],
    [
      'a prefix at a dot',
      ['cancel.malformed-id'],
      CHECKS.filter((c) => c.id.startsWith('cancel.malformed-id.')).map((c) => c.id),
    ],
    ['not a prefix inside a word', ['list.ord'], []],
  ] as const)('by %s', (_label, only, want) => {
    expect(selectChecks(only).checks.map((c) => c.id)).toEqual(want);
  });

  it('names the entries that select nothing', () => {
    expect(selectChecks(['auth', 'nope']).unknown).toEqual(['nope']);
  });

  it('says how many checks the selection left out', () => {
    const all = selectChecks([]);
    expect(all.notSelected).toBe(0);
    expect(selectChecks(['list.orders']).notSelected).toBe(all.checks.length - 1);
  });

  it('has unique ids, each with a citation and a level', () => {
    expect(new Set(CHECKS.map((c) => c.id)).size).toBe(CHECKS.length);
    for (const check of CHECKS) {
      expect(check.citation, check.id).toMatch(/^(§\d|D\d)/);
      expect(['failure', 'warning']).toContain(check.level);
    }
  });
});

describe('runConformance options', () => {
  it('throws on a base URL that is not http', async () => {
    await expect(runConformance({ baseUrl: 'ftp://h/v1', apiKey: 'k' })).rejects.toThrow(
      ConformanceOptionsError,
    );
  });

  it('throws on an empty key', async () => {
    await expect(runConformance({ baseUrl: 'http://h/v1', apiKey: '' })).rejects.toThrow(/apiKey is empty/);
  });

  it('throws on an --only entry that names no check', async () => {
    await expect(runConformance({ baseUrl: 'http://h/v1', apiKey: 'k', only: ['nope'] })).rejects.toThrow(
      /nope/,
    );
  });
});

describe('ConformanceOptionsError names the option at fault', () => {
  it.each([
    ['fuzzTimeMs', { fuzzTimeMs: 0 }, '--fuzz-time must be a duration (ms) from 1 to 2147483647, got 0'],
    ['pendingOrders', { pendingOrders: ['02'] }, '--pending-order "02" is not an int64 order id'],
  ] as const)('%s, and words the message with the name a program gives it', async (option, given, shown) => {
    const error = await runConformance({ baseUrl: 'http://h/v1', apiKey: 'k', ...given }).catch((e) => e);
    expect(error).toBeInstanceOf(ConformanceOptionsError);
    expect((error as ConformanceOptionsError).option).toBe(option);
    const flag = option === 'fuzzTimeMs' ? '--fuzz-time' : '--pending-order';
    expect((error as ConformanceOptionsError).messageFor(flag)).toContain(shown);
  });
});

describe('order ids must be canonical int64 decimals, whoever passes them', () => {
  // A fetch that must never be called: a rejected option stops the run before any request.
  const noFetch = (() => {
    throw new Error('no request may be sent');
  }) as unknown as typeof fetch;

  it.each([
    ['a leading zero', { pendingOrders: ['02'] }, 'pendingOrders', '"02"'],
    ['a plus sign', { shippedOrders: ['+2'] }, 'shippedOrders', '"+2"'],
    ['a decimal', { pendingOrders: ['1.5'] }, 'pendingOrders', '"1.5"'],
    ['a space', { shippedOrders: [' 2'] }, 'shippedOrders', '" 2"'],
    ['an empty id', { pendingOrders: [''] }, 'pendingOrders', '""'],
    ['a negative zero', { pendingOrders: ['-0'] }, 'pendingOrders', '"-0"'],
    ['2^63', { pendingOrders: ['9223372036854775808'] }, 'pendingOrders', '"9223372036854775808"'],
    ['a bigint outside int64', { shippedOrders: [2n ** 64n] }, 'shippedOrders', '"18446744073709551616"'],
  ] as const)('rejects %s as an options error naming the option', async (_label, ids, option, shown) => {
    const run = runConformance({ baseUrl: 'http://h/v1', apiKey: 'k', fetch: noFetch, ...ids });
    await expect(run).rejects.toThrow(ConformanceOptionsError);
    await expect(run).rejects.toThrow(`${option} ${shown} is not an int64 order id`);
  });

  it.each([
    ['from options', (options: ConformanceOptions) => options],
    [
      'from the environment (describeConformance)',
      (options: ConformanceOptions) =>
        optionsFromEnv({
          PETSTORE_BASE_URL: options.baseUrl,
          PETSTORE_API_KEY: options.apiKey,
          PETSTORE_SHIPPED_ORDERS: '02',
        }),
    ],
  ])('rejects 02 for 2 %s rather than failing a correct target', async (_label, build) => {
    const target = await startTarget(behaviour(MOCK_LIKE_READINGS));
    try {
      const options = build({
        baseUrl: target.baseUrl,
        apiKey: TARGET_KEY,
        shippedOrders: ['02'],
        only: ['list.includes-given-orders'],
      });
      await expect(runConformance(options)).rejects.toThrow(ConformanceOptionsError);
    } finally {
      await target.close();
    }
  });

  it('accepts bigints and exact ids above 2^53 and compares them as the target lists them', async () => {
    const target = await startTarget(behaviour(MOCK_LIKE_READINGS));
    try {
      const result = await runConformance({
        baseUrl: target.baseUrl,
        apiKey: TARGET_KEY,
        pendingOrders: [9007199254740993n, '1'],
        shippedOrders: [2n],
        only: ['list.includes-given-orders'],
      });
      expect(result.checks.map((c) => [c.id, c.outcome])).toEqual([['list.includes-given-orders', 'PASS']]);
    } finally {
      await target.close();
    }
  });
});

// Two destructive checks handed the same pending order would see each other's cancel: a correct server
// would get a false FAIL on cancel.concurrent, so the run refuses before sending anything.
describe('an order id given twice is an options error', () => {
  it.each([
    ['twice as pending', { pendingOrders: ['1', '1'] }, /^pendingOrders 1 is given more than once/],
    [
      'as a string and a bigint',
      { pendingOrders: ['1', '3', 1n] },
      /^pendingOrders 1 is given more than once/,
    ],
    ['twice as shipped', { shippedOrders: [2n, 2n] }, /^shippedOrders 2 is given more than once/],
    [
      'as pending and as shipped',
      { pendingOrders: ['3'], shippedOrders: ['2', '3'] },
      /^shippedOrders 3 is also given as a pending order/,
    ],
  ] as const)('%s', async (_label, ids, message) => {
    const run = runConformance({
      baseUrl: 'http://h/v1',
      apiKey: 'k',
      destructive: true,
      fetch: (() => {
        throw new Error('no request may be sent');
      }) as unknown as typeof fetch,
      ...ids,
    });
    await expect(run).rejects.toThrow(ConformanceOptionsError);
    await expect(run).rejects.toThrow(message);
  });
});

describe('pending ids go to the destructive checks most important first', () => {
  it.each([
    [1, ['cancel.pending-order'], ['cancel.concurrent', 'auth.cancelOrder.pending-order']],
    [2, ['cancel.pending-order', 'cancel.concurrent'], ['auth.cancelOrder.pending-order']],
    [3, ['cancel.pending-order', 'cancel.concurrent', 'auth.cancelOrder.pending-order'], []],
  ] as const)('with %i pending id(s)', async (count, consuming, skipped) => {
    const target = await startTarget(behaviour(MOCK_LIKE_READINGS));
    try {
      const result = await runConformance({
        baseUrl: target.baseUrl,
        apiKey: TARGET_KEY,
        pendingOrders: ['3', '5', '7'].slice(0, count),
        destructive: true,
        only: ['cancel', 'auth.cancelOrder.pending-order'],
      });
      const consumed = result.checks.filter((c) => c.consumedOrders.length > 0).map((c) => c.id);
      expect(consumed.sort()).toEqual([...consuming].sort());
      for (const id of skipped) {
        const check = result.checks.find((c) => c.id === id);
        expect(check?.outcome).toBe('SKIP');
        expect(check?.skip?.enableWith).toBe('--pending-order ID');
      }
      expect(new Set(result.checks.flatMap((c) => c.consumedOrders)).size).toBe(count);
      expect(result.summary.notSelected).toBeGreaterThan(0);
    } finally {
      await target.close();
    }
  });

  it('hands the ids out in the order given, to the checks in priority order', async () => {
    const target = await startTarget(behaviour(MOCK_LIKE_READINGS));
    try {
      const result = await runConformance({
        baseUrl: target.baseUrl,
        apiKey: TARGET_KEY,
        pendingOrders: ['7', '3', '5'],
        destructive: true,
        only: ['cancel', 'auth.cancelOrder.pending-order'],
      });
      const consumed = Object.fromEntries(
        result.checks.filter((c) => c.consumedOrders.length > 0).map((c) => [c.id, c.consumedOrders]),
      );
      expect(consumed).toEqual({
        'cancel.pending-order': ['7'],
        'cancel.concurrent': ['3'],
        'auth.cancelOrder.pending-order': ['5'],
      });
    } finally {
      await target.close();
    }
  });

  it('ranks every check that consumes pending ids', () => {
    const consumers = CHECKS.filter((c) => (c.needs?.pendingOrders ?? 0) > 0).map((c) => c.id);
    expect([...consumers].sort()).toEqual([...PENDING_PRIORITY].sort());
  });

  it('skips cancel.repeat with its reason when cancel.pending-order is not selected', async () => {
    const target = await startTarget(behaviour(MOCK_LIKE_READINGS));
    try {
      const result = await runConformance({
        baseUrl: target.baseUrl,
        apiKey: TARGET_KEY,
        pendingOrders: ['3'],
        destructive: true,
        only: ['cancel.repeat'],
      });
      expect(result.checks.map((c) => [c.id, c.outcome])).toEqual([['cancel.repeat', 'SKIP']]);
      expect(result.checks[0]?.skip?.reason).toMatch(/cancel\.pending-order/);
    } finally {
      await target.close();
    }
  });
});

describe('docs/conformance.md', () => {
  it('documents every check, and no check that does not exist', async () => {
    const { readFileSync } = await import('node:fs');
    const doc = readFileSync(new URL('../../docs/conformance.md', import.meta.url), 'utf8');
    const rows = [...doc.matchAll(/^\| `([a-z][\w-]*\.[\w.-]+)` \| (§|D)/gm)].map((m) => m[1]);
    expect(rows).toEqual(CHECKS.map((c) => c.id));
  });
});

describe('the levels of x-petstore-conformance are read from the document (D3)', () => {
  /** The toolkit's document with the 409 response's levels changed in memory. */
  function withShippedLevels(levels: { status?: string; body?: string }) {
    const document = structuredClone(contract.document) as Record<string, unknown> & {
      components: { responses: { OrderAlreadyShipped: { 'x-petstore-conformance': object } } };
    };
    Object.assign(document.components.responses.OrderAlreadyShipped['x-petstore-conformance'], levels);
    return buildContract(document);
  }

  async function outcomeOf(server: string, check: string, altered?: ReturnType<typeof buildContract>) {
    const broken = BROKEN_SERVERS.find((s) => s.name === server);
    if (!broken) throw new Error(server);
    const target = await startTarget(broken.behaviour);
    try {
      const result = await runConformance({
        baseUrl: target.baseUrl,
        apiKey: TARGET_KEY,
        shippedOrders: ['2'],
        only: ['cancel.shipped-order', 'errors.contract'],
        ...(altered ? { contract: altered } : {}),
      });
      return Object.fromEntries(result.checks.map((c) => [c.id, [c.outcome, c.level]]))[check];
    } finally {
      await target.close();
    }
  }

  it.each([
    [
      'status',
      'cancel-shipped-succeeds',
      'cancel.shipped-order',
      { status: 'warning' },
      ['FAIL', 'failure'],
      ['WARN', 'warning'],
    ],
    [
      'body',
      'shipped-409-plain-text',
      'cancel.shipped-order.error-body',
      { body: 'failure' },
      ['WARN', 'warning'],
      ['FAIL', 'failure'],
    ],
  ] as const)(
    '%s: changing it in the document changes the verdict',
    async (_field, server, check, levels, before, after) => {
      expect(await outcomeOf(server, check)).toEqual(before);
      expect(await outcomeOf(server, check, withShippedLevels(levels))).toEqual(after);
    },
  );

  it('a 409 body held at failure level is judged once, by its own check, not by errors.contract too', async () => {
    expect(
      await outcomeOf('shipped-409-plain-text', 'errors.contract', withShippedLevels({ body: 'failure' })),
    ).toEqual(['SKIP', 'failure']);
  });
});
