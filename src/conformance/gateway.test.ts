import { describe, expect, it } from 'vitest';
import {
  DEFAULT_RETRY_POLICY,
  DEFAULT_WAIT_MS,
  Gateway,
  parseDuration,
  type RetryPolicy,
  retryAfterMs,
} from './gateway.js';

type Clock = NonNullable<ConstructorParameters<typeof Gateway>[1]>;

/** A clock that moves only when the gateway sleeps, and remembers each sleep. */
function fakeClock(): Clock & { sleeps: number[] } {
  let now = 1_000_000;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => now,
    sleep: async (ms) => {
      sleeps.push(ms);
      now += ms;
    },
  };
}

/** A fetch that answers from a script, one answer per request, and counts requests. */
function scripted(answers: Array<{ status: number; retryAfter?: string }>) {
  let sent = 0;
  const fetch = (async () => {
    const answer = answers[Math.min(sent, answers.length - 1)] ?? { status: 200 };
    sent += 1;
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (answer.retryAfter !== undefined) headers['retry-after'] = answer.retryAfter;
    return new Response(answer.status === 204 ? null : '[]', { status: answer.status, headers });
  }) as typeof globalThis.fetch;
  return { fetch, sent: () => sent };
}

async function sendThrough(
  answers: Array<{ status: number; retryAfter?: string }>,
  policy: Partial<RetryPolicy> = {},
  requests = 1,
) {
  const clock = fakeClock();
  const gateway = new Gateway({ ...DEFAULT_RETRY_POLICY, ...policy }, clock);
  const target = scripted(answers);
  const statuses: Array<number | null> = [];
  for (let i = 0; i < requests; i++) {
    const outcome = await gateway.send(
      { method: 'GET', url: 'http://h/v1/store/orders', headers: {} },
      { timeoutMs: 1000, maxBodyBytes: 1024, fetch: target.fetch },
    );
    statuses.push(outcome.ok ? outcome.value.status : null);
  }
  return { gateway, clock, statuses, sent: target.sent() };
}

describe('Retry-After', () => {
  const now = Date.parse('Wed, 21 Oct 2026 07:28:00 GMT');
  it.each([
    ['delay-seconds', '2', 2000],
    ['zero seconds', '0', 0],
    ['an HTTP-date three seconds ahead', 'Wed, 21 Oct 2026 07:28:03 GMT', 3000],
    ['an HTTP-date in the past', 'Wed, 21 Oct 2026 07:27:00 GMT', 0],
    ['a negative number', '-1', null],
    ['a fraction', '1.5', null],
    ['a word', 'soon', null],
    ['no header', undefined, null],
  ] as const)('reads %s', (_label, value, want) => {
    expect(retryAfterMs(value, now)).toBe(want);
  });
});

describe('--retry-budget durations', () => {
  it.each([
    ['30s', 30_000],
    ['500ms', 500],
    ['2m', 120_000],
    ['1.5', 1500],
    ['0', 0],
    ['soon', null],
    ['-1s', null],
    ['30 s', null],
  ] as const)('reads %s', (text, want) => {
    expect(parseDuration(text)).toBe(want);
  });
});

describe('the gateway between the suite and the server', () => {
  it('retries a 429, waits what Retry-After asks, and records the request', async () => {
    const { statuses, clock, gateway, sent } = await sendThrough([
      { status: 429, retryAfter: '2' },
      { status: 200 },
    ]);
    expect(statuses).toEqual([200]);
    expect(sent).toBe(2);
    expect(clock.sleeps).toEqual([2000]);
    expect(gateway.retries).toEqual([
      { method: 'GET', url: 'http://h/v1/store/orders', attempts: 2, statuses: [429, 200] },
    ]);
    expect(gateway.waitedMs).toBe(2000);
    expect(gateway.notReady).toBeNull();
  });

  it('waits a default pause when a 503 gives no Retry-After', async () => {
    const { clock, statuses } = await sendThrough([{ status: 503 }, { status: 200 }]);
    expect(statuses).toEqual([200]);
    expect(clock.sleeps).toEqual([DEFAULT_WAIT_MS]);
  });

  it('cuts a long Retry-After to the longest single wait', async () => {
    const { clock } = await sendThrough([{ status: 503, retryAfter: '3600' }, { status: 200 }], {
      budgetMs: 60_000,
    });
    expect(clock.sleeps).toEqual([DEFAULT_RETRY_POLICY.maxWaitMs]);
  });

  it('stops as not ready after the retries of one request, and sends nothing more', async () => {
    const { gateway, statuses, sent } = await sendThrough([{ status: 503, retryAfter: '0' }], {}, 2);
    expect(sent).toBe(DEFAULT_RETRY_POLICY.maxRetriesPerRequest + 1);
    expect(statuses).toEqual([503, null]);
    expect(gateway.notReady?.message).toMatch(
      /^environment not ready: GET http:\/\/h\/v1\/store\/orders was answered 503, 503, 503, 503, 503, 503: it was still answered 503 after 5 retries$/,
    );
  });

  it('stops as not ready when the next wait would overrun the budget', async () => {
    const { gateway, clock, sent } = await sendThrough([{ status: 429, retryAfter: '2' }], {
      budgetMs: 3000,
    });
    expect(clock.sleeps).toEqual([2000]);
    expect(sent).toBe(2);
    expect(gateway.notReady?.message).toMatch(
      /waiting 2 s more would overrun the retry budget \(3 s, 2 s spent since an answer last got through\)/,
    );
  });

  it('with no budget, retries only what says Retry-After: 0', async () => {
    const now = await sendThrough([{ status: 429, retryAfter: '0' }, { status: 200 }], { budgetMs: 0 });
    expect(now.statuses).toEqual([200]);
    const later = await sendThrough([{ status: 429, retryAfter: '1' }, { status: 200 }], { budgetMs: 0 });
    expect(later.sent).toBe(1);
    expect(later.gateway.notReady).not.toBeNull();
  });

  it('paces requests under --rate-limit: starts 1/N s apart', async () => {
    const { clock, sent } = await sendThrough([{ status: 200 }], { rateLimit: 10 }, 3);
    expect(sent).toBe(3);
    expect(clock.sleeps).toEqual([100, 100]);
  });

  it('lets a run of 200 requests finish behind a limiter that throttles one in four with Retry-After: 1, pacing itself after the first 429 (D22)', async () => {
    const everyFourth = Array.from({ length: 400 }, (_, i) =>
      i % 4 === 3 ? { status: 429, retryAfter: '1' } : { status: 200 },
    );
    const { gateway, statuses, clock } = await sendThrough(everyFourth, {}, 200);
    expect(gateway.notReady).toBeNull();
    expect(statuses.every((s) => s === 200)).toBe(true);
    expect(gateway.waitedMs).toBeGreaterThan(DEFAULT_RETRY_POLICY.budgetMs);
    // Before the first 429 no pace; after it, starts 1/50 s apart.
    expect(clock.sleeps.slice(0, 3)).toEqual([1000, 20, 20]);
  });

  it('does not pace without --rate-limit', async () => {
    const { clock } = await sendThrough([{ status: 200 }], {}, 3);
    expect(clock.sleeps).toEqual([]);
  });
});
