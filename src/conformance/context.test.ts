import { describe, expect, it } from 'vitest';
import { defaultContract } from '../contract/index.js';
import { type RequestPlan, VALID_AUTH } from '../judge/exchange.js';
import { CheckContext } from './context.js';
import { DEFAULT_RETRY_POLICY } from './gateway.js';
import type { ResolvedOptions } from './options.js';

const contract = defaultContract();

/** A context whose fetch answers every request from an in-memory table and counts what it was sent. */
function contextWith(options: Partial<ResolvedOptions> = {}, list = '[{"id":1,"petId":10,"quantity":1}]') {
  const sent: string[] = [];
  const fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(String(input));
    sent.push(`${init?.method ?? 'GET'} ${url.pathname}`);
    const body = url.pathname.endsWith('/store/orders') ? list : '{}';
    return new Response(body, { status: 200, headers: { 'content-type': 'application/json' } });
  }) as typeof globalThis.fetch;
  const ctx = new CheckContext({
    baseUrl: 'http://h/v1',
    apiKey: 'k',
    pendingOrders: [],
    shippedOrders: [],
    destructive: false,
    timeoutMs: 1000,
    maxBodyBytes: 1 << 20,
    only: [],
    petId: null,
    fetch,
    contract,
    retry: DEFAULT_RETRY_POLICY,
    environment: 'auto',
    liveProbeMs: 0,
    fuzz: { requests: 0, timeMs: null, seed: 1 },
    ...options,
  });
  return { ctx, sent };
}

describe('CheckContext requests', () => {
  it('sends and records every planned request, identical ones too', async () => {
    const { ctx, sent } = contextWith();
    const plan: RequestPlan = { method: 'DELETE', path: '/store/orders/abc', auth: VALID_AUTH };
    await ctx.request(plan);
    await ctx.request({ ...plan });
    expect(sent).toEqual(['DELETE /v1/store/orders/abc', 'DELETE /v1/store/orders/abc']);
    expect(ctx.exchanges.map((e) => e.seq)).toEqual([1, 2]);
  });

  it.each([
    ['the initial listing', (ctx: CheckContext) => ctx.initialListing(), ['GET /v1/store/orders']],
    [
      'the pet probe (after the listing it takes the pet id from)',
      (ctx: CheckContext) => ctx.petProbe(),
      ['GET /v1/store/orders', 'GET /v1/pets/10'],
    ],
    ['the unknown order id', (ctx: CheckContext) => ctx.unknownOrderId(), ['GET /v1/store/orders']],
  ])('asks for %s once however often it is wanted', async (_label, ask, want) => {
    const { ctx, sent } = contextWith();
    await Promise.all([ask(ctx), ask(ctx)]);
    await ask(ctx);
    expect(sent).toEqual(want);
  });
});

describe('CheckContext cancel steps', () => {
  it('notes a cancel it could not verify, not a failure, when the list hides which order is which', async () => {
    // An item whose id is not an int64 (here a string): no list before the cancel to compare with.
    const { ctx } = contextWith({}, '[{"id":"x","petId":10,"quantity":1}]');
    const step = await ctx.cancel([{ method: 'DELETE', path: '/store/orders/2', auth: VALID_AUTH }]);
    expect(step.findings).toEqual([]);
    expect(step.notes).toEqual([
      'what the cancel did was not verified: the list could not be read before it',
    ]);
  });
});
