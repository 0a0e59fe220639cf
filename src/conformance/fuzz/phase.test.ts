/**
 * The fuzz phase against real sockets: a crash on a broken escape fails a default run, correct servers pass,
 * a seed replays its requests, and `fuzzRequests: 0` turns the phase off.
 */
import { describe, expect, it } from 'vitest';
import {
  behaviour,
  CORRECT,
  createStore,
  MOCK_LIKE_READINGS,
  PENDING_IDS,
  SHIPPED_IDS,
  startTarget,
  TARGET_KEY,
} from '../../../test-support/servers/reference-server.js';
import type { ConformanceOptions } from '../options.js';
import { runConformance } from '../runner.js';
import { DEFAULT_SEED, MAX_FUZZ_REQUESTS } from './phase.js';

/** Crashes on exactly one request: the cancel of a truncated UTF-8 escape. */
const crashesOnBrokenEscape = behaviour(MOCK_LIKE_READINGS, {
  async handle(b, request, store) {
    if (request.method === 'DELETE' && request.path === '/store/orders/%E0%A4%A') {
      return CORRECT.json(b, 500, { message: 'URIError: URI malformed' });
    }
    return CORRECT.handle(b, request, store);
  },
});

/** Runs the fuzz phase alone, read-only unless `options` say otherwise, and records each request sent. */
async function run(server = behaviour(MOCK_LIKE_READINGS), options: Partial<ConformanceOptions> = {}) {
  const target = await startTarget(server, createStore());
  const sent: string[] = [];
  const recording: typeof fetch = async (input, init) => {
    const headers = new Headers(init?.headers);
    sent.push(
      `${init?.method} ${String(input)} ${headers.get('authorization') ?? '-'} ${String(init?.body ?? '')}`,
    );
    return fetch(input, init);
  };
  try {
    const result = await runConformance({
      baseUrl: target.baseUrl,
      apiKey: TARGET_KEY,
      pendingOrders: PENDING_IDS,
      shippedOrders: SHIPPED_IDS,
      fetch: recording,
      only: ['fuzz'],
      ...options,
    });
    const fuzz = result.checks.find((c) => c.id === 'fuzz.invariants');
    return { result, fuzz, sent };
  } finally {
    await target.close();
  }
}

describe('the fuzz phase', () => {
  it('fails a run with the default budget on a server that answers 500 to a broken percent escape', async () => {
    const { result, fuzz } = await run(crashesOnBrokenEscape);
    expect(result.outcome).toBe('fail');
    expect(fuzz?.outcome).toBe('FAIL');
    const [first] = fuzz?.findings ?? [];
    expect(first?.message).toBe('no-5xx: DELETE /store/orders/%E0%A4%A answered 500');
    expect(first?.request?.curl).toContain("'http://127.0.0.1:");
    expect(first?.request?.curl).toContain('/v1/store/orders/%E0%A4%A');
    expect(first?.request?.curl).toContain('$PETSTORE_API_KEY');
    expect(JSON.stringify(result)).not.toContain(TARGET_KEY);
    expect(result.fuzz?.seed).toEqual(expect.any(Number));
    expect(fuzz?.notes.join(' ')).toContain(`replay with --seed ${result.fuzz?.seed}`);
  });

  it('shrinks a failure to a small request', async () => {
    // Any id with a percent sign crashes it: fast-check shrinks the first one it finds.
    const crashesOnPercent = behaviour(MOCK_LIKE_READINGS, {
      async handle(b, request, store) {
        if (/^\/(store\/orders|pets)\/[^/]*%/.test(request.path)) return CORRECT.json(b, 500, {});
        return CORRECT.handle(b, request, store);
      },
    });
    const { fuzz, result } = await run(crashesOnPercent, { seed: 5 });
    expect(fuzz?.outcome).toBe('FAIL');
    const url = fuzz?.findings[0]?.request?.url ?? '';
    expect(new URL(url).pathname.length).toBeLessThan(40);
    expect(result.fuzz?.sent).toBeLessThanOrEqual(50 + 100);
  });

  it.each([
    ['read-only', false],
    ['destructive', true],
  ])('passes a correct server (%s)', async (_mode, destructive) => {
    const { result, fuzz } = await run(undefined, { destructive, seed: 11, fuzzRequests: 150 });
    expect(fuzz?.outcome, fuzz?.message).toBe('PASS');
    expect(result.fuzz?.sent).toBe(150);
    expect(result.outcome).toBe('pass');
  });

  it('sends the same requests for the same seed, and others for another', async () => {
    // Each run has a port of its own: the requests are compared after the base URL.
    const fuzzed = (sent: string[]) =>
      sent.slice(-30).map((line) => line.replace(/http:\/\/127\.0\.0\.1:\d+/, ''));
    const first = await run(undefined, { seed: 1234, fuzzRequests: 30 });
    const again = await run(undefined, { seed: 1234, fuzzRequests: 30 });
    const other = await run(undefined, { seed: 4321, fuzzRequests: 30 });
    expect(fuzzed(again.sent)).toEqual(fuzzed(first.sent));
    expect(fuzzed(other.sent)).not.toEqual(fuzzed(first.sent));
    expect(first.result.fuzz?.seed).toBe(1234);
  });

  it('uses a fixed seed when none is named, so every run sends the same requests (D23)', async () => {
    const fuzzed = (sent: string[]) =>
      sent.slice(-30).map((line) => line.replace(/http:\/\/127\.0\.0\.1:\d+/, ''));
    const first = await run(undefined, { fuzzRequests: 30 });
    const again = await run(undefined, { fuzzRequests: 30 });
    expect(first.result.fuzz?.seed).toBe(DEFAULT_SEED);
    expect(fuzzed(again.sent)).toEqual(fuzzed(first.sent));
    const drawn = await run(undefined, { fuzzRequests: 1, seed: 'random' });
    expect(drawn.fuzz?.notes).toContain(
      `seed ${drawn.result.fuzz?.seed}: replay with --seed ${drawn.result.fuzz?.seed}`,
    );
  });

  it('is off with a budget of 0', async () => {
    // The whole suite: nothing else fails on this server.
    const { fuzz, result } = await run(crashesOnBrokenEscape, { fuzzRequests: 0, only: [] });
    expect(fuzz?.outcome).toBe('SKIP');
    expect(fuzz?.skip?.enableWith).toBe('--fuzz N');
    expect(result.outcome).toBe('pass');
  });

  it('stops at a time budget', async () => {
    const { fuzz, result } = await run(undefined, { fuzzTimeMs: 300, seed: 3 });
    expect(fuzz?.outcome).toBe('PASS');
    expect(result.fuzz?.budget.timeMs).toBe(300);
    expect(result.fuzz?.sent).toBeGreaterThan(0);
    // Without the time budget it would send its bound of requests: far more than a test's time allows.
    expect(result.fuzz?.sent).toBeLessThan(MAX_FUZZ_REQUESTS);
  });
});
