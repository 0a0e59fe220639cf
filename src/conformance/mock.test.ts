/**
 * The suite against our own mock, in-process (fetch = mock.handle) and over a real socket: everything
 * passes, destructive checks included. Order ids come from the mock's /__mock/state, not from guesses.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { parseExactJson } from '../contract/index.js';
import { createMock, type Mock } from '../mock/index.js';
import type { ConformanceOptions } from './options.js';
import { runConformance } from './runner.js';

interface MockState {
  orders: Array<{ id: number | bigint; state: string }>;
}

async function stateOf(mock: Mock): Promise<{ text: string; pending: string[]; shipped: string[] }> {
  const [key] = mock.apiKeys;
  const response = await mock.handle(
    new Request('http://mock.invalid/__mock/state', { headers: { authorization: `Bearer ${key}` } }),
  );
  const text = await response.text();
  const parsed = parseExactJson(text);
  if (!parsed.ok) throw new Error(`/__mock/state is not JSON: ${parsed.error}`);
  const { orders } = parsed.value as unknown as MockState;
  const ids = (state: string) => orders.filter((o) => o.state === state).map((o) => String(o.id));
  return { text, pending: ids('pending'), shipped: ids('shipped') };
}

const inProcess =
  (mock: Mock): typeof fetch =>
  (input, init) =>
    mock.handle(new Request(input, init));

let mock: Mock | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

async function runAgainstMock(viaSocket: boolean, extra: Partial<ConformanceOptions> = {}) {
  mock = await createMock();
  const { pending, shipped } = await stateOf(mock);
  const baseUrl = viaSocket
    ? (await mock.listen({ port: 0, host: '127.0.0.1' })).baseUrl
    : 'http://mock.invalid/v1';
  const result = await runConformance({
    baseUrl,
    apiKey: mock.apiKeys[0] ?? '',
    pendingOrders: pending,
    shippedOrders: shipped,
    destructive: true,
    ...(viaSocket ? {} : { fetch: inProcess(mock) }),
    ...extra,
  });
  return { result, pending, shipped };
}

describe('the suite against the mock', () => {
  it.each([
    ['in-process', false],
    ['over a socket', true],
  ] as const)('passes every check %s, destructive included', async (_label, viaSocket) => {
    const { result, pending } = await runAgainstMock(viaSocket);
    expect(pending.length).toBeGreaterThanOrEqual(3);
    expect(
      result.checks.filter((c) => c.outcome !== 'PASS').map((c) => `${c.outcome} ${c.id}: ${c.message}`),
    ).toEqual([]);
    expect(result.outcome).toBe('pass');
    // Three destructive checks, three different pending orders, and the spare 9007199254740993 cancelled
    // by its exact id (the mock lists no id above 2^53 that a double could be confused with).
    const consumed = result.checks.flatMap((c) => c.consumedOrders);
    expect(new Set(consumed).size).toBe(4);
    expect(result.checks.find((c) => c.id === 'cancel.int64-exact')?.consumedOrders).toEqual([
      '9007199254740993',
    ]);
    // Every documented response of the order operations was exercised.
    const orders = result.coverage.filter((op) => op.operationId !== 'getPet');
    for (const op of orders) expect(op.exercised).toEqual(op.documented);
  });

  it('changes nothing without --destructive', async () => {
    mock = await createMock();
    const before = await stateOf(mock);
    const result = await runConformance({
      baseUrl: 'http://mock.invalid/v1',
      apiKey: mock.apiKeys[0] ?? '',
      pendingOrders: before.pending,
      shippedOrders: before.shipped,
      fetch: inProcess(mock),
    });
    expect(result.outcome).toBe('pass');
    expect((await stateOf(mock)).text).toBe(before.text);
    const skipped = result.checks.filter((c) => c.outcome === 'SKIP');
    expect(skipped.map((c) => c.id).sort()).toEqual([
      'auth.cancelOrder.pending-order',
      'cancel.cancelled-stays-gone',
      'cancel.concurrent',
      'cancel.int64-exact',
      'cancel.pending-order',
      'cancel.repeat',
    ]);
    for (const check of skipped) expect(check.skip?.enableWith).toMatch(/--destructive/);
  });

  it('reads ids above 2^53 exactly (D8)', async () => {
    const { result } = await runAgainstMock(false, { only: ['list'] });
    const list = result.checks.find((c) => c.id === 'list.orders');
    expect(list?.notes.join(' ')).toMatch(/above 2\^53 read exactly/);
  });
});
