/**
 * The suite agrees with the proxy on a double-clicked cancel (issue 17, item 7): the cross-request
 * observer it feeds sees the two cancels sent together as in flight together, so a loser answered before
 * the winner is no observation, and cancel.concurrent passes. A refusal sent on its own is still one.
 */
import { describe, expect, it } from 'vitest';
import { doubleClickServer, refusesOnceServer } from '../../test-support/proxy/double-click.js';
import { type Behaviour, startTarget, TARGET_KEY } from '../../test-support/servers/reference-server.js';
import { runSuiteAgainst } from '../../test-support/servers/run-suite.js';
import { defaultContract } from '../contract/index.js';
import { cancel } from './checks/check.js';
import { CheckContext } from './context.js';
import { DEFAULT_RETRY_POLICY } from './gateway.js';

const contract = defaultContract();

/** Cancels order 3 twice, together or one after the other; returns the statuses and the observations. */
async function cancelTwice(server: Behaviour, together: boolean) {
  const target = await startTarget(server);
  try {
    const ctx = new CheckContext({
      baseUrl: target.baseUrl,
      apiKey: TARGET_KEY,
      pendingOrders: ['3'],
      shippedOrders: [],
      destructive: true,
      timeoutMs: 5_000,
      maxBodyBytes: 1 << 20,
      only: [],
      petId: null,
      fetch: globalThis.fetch,
      contract,
      retry: DEFAULT_RETRY_POLICY,
      environment: 'auto',
      liveProbeMs: 0,
      fuzz: { requests: 0, timeMs: null, seed: 1 },
    });
    const steps = together
      ? [await ctx.cancel([cancel(ctx, '3'), cancel(ctx, '3')])]
      : [await ctx.cancel([cancel(ctx, '3')]), await ctx.cancel([cancel(ctx, '3')])];
    const statuses = steps.flatMap((s) =>
      s.exchanges.map((e) => (e.outcome.ok ? e.outcome.value.status : 0)),
    );
    return { statuses: statuses.sort(), observed: ctx.observations.map((o) => `${o.level} ${o.rule}`) };
  } finally {
    await target.close();
  }
}

const CASES = [
  {
    name: 'a loser answered 404 before the winner is no observation',
    server: doubleClickServer(404),
    together: true,
    want: { statuses: [204, 404], observed: [] },
  },
  {
    name: 'a loser answered 409 before the winner is no observation',
    server: doubleClickServer(409),
    together: true,
    want: { statuses: [204, 409], observed: [] },
  },
  {
    name: 'a 409 sent on its own before a 204 is still observed',
    server: refusesOnceServer(409),
    together: false,
    want: {
      statuses: [204, 409],
      observed: ['warning state.409-on-pending', 'failure state.cancel-after-refusal'],
    },
  },
];

describe('a double-clicked cancel in the suite', () => {
  it.each(CASES.map((c) => [c.name, c] as const))('%s', async (_name, { server, together, want }) => {
    expect(await cancelTwice(server, together)).toEqual(want);
  });

  it.each([404, 409] as const)(
    'cancel.concurrent passes when the %s loser is answered first',
    async (status) => {
      const result = await runSuiteAgainst(doubleClickServer(status), { only: ['cancel.concurrent'] });
      const check = result.checks.find((c) => c.id === 'cancel.concurrent');
      expect(check?.outcome).toBe('PASS');
      // Every simultaneous cancel is answered: exactly one 204, the losers the refusal.
      const statuses = (check?.message ?? '').replace(/^answered /, '').split(', ');
      expect(statuses.filter((s) => s === '204')).toHaveLength(1);
      expect(statuses.filter((s) => s !== '204').every((s) => s === String(status))).toBe(true);
    },
  );
});
