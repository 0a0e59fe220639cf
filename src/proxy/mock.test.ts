/**
 * The proxy in front of our own mock: the README's curl lines and a whole destructive conformance run
 * go through it, and the server is found to break no rule. The suite's deliberate bad requests (no key,
 * malformed ids, unknown paths) are the client's findings, and --ignore-client leaves them out.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { runConformance } from '../conformance/runner.js';
import { parseExactJson } from '../contract/index.js';
import { createMock, type Mock } from '../mock/index.js';
import { createProxy, type ValidatingProxy } from './index.js';

let mock: Mock | undefined;
let proxy: ValidatingProxy | undefined;
afterEach(async () => {
  await proxy?.close();
  await mock?.close();
});

async function setUp(judgeClient: boolean) {
  mock = await createMock();
  const upstream = await mock.listen({ port: 0, host: '127.0.0.1' });
  proxy = createProxy({ upstream: upstream.baseUrl, judgeClient });
  const { baseUrl } = await proxy.listen({ port: 0 });
  const key = mock.apiKeys[0] ?? '';
  return { baseUrl, key, upstream };
}

async function orderIds(baseUrl: string, key: string, state: string): Promise<string[]> {
  const response = await fetch(`${baseUrl.replace(/\/v1$/, '')}/__mock/state`, {
    headers: { authorization: `Bearer ${key}` },
  });
  const parsed = parseExactJson(await response.text());
  if (!parsed.ok) throw new Error(parsed.error);
  const { orders } = parsed.value as unknown as { orders: Array<{ id: number | bigint; state: string }> };
  return orders.filter((o) => o.state === state).map((o) => String(o.id));
}

describe('the proxy in front of the mock', () => {
  it("finds nothing in the README's curl lines", async () => {
    const { baseUrl, key } = await setUp(true);
    const auth = { authorization: `Bearer ${key}` };
    const list = await fetch(`${baseUrl}/store/orders`, { headers: auth });
    expect(list.status).toBe(200);
    await list.text();
    expect((await fetch(`${baseUrl}/store/orders/1`, { method: 'DELETE', headers: auth })).status).toBe(204);
    const shipped = await fetch(`${baseUrl}/store/orders/2`, { method: 'DELETE', headers: auth });
    expect(shipped.status).toBe(409);
    await shipped.text();
    const after = await fetch(`${baseUrl}/store/orders`, { headers: auth });
    await after.text();
    expect((await proxy?.close())?.result.outcome).toBe('pass');
    expect(proxy?.findings()).toEqual([]);
  });

  it.each([
    ['judging the client too: only the client findings of its deliberate probes', true],
    ['with --ignore-client: no finding at all', false],
  ])('finds no server fault in a destructive conformance run, %s', async (_name, judgeClient) => {
    const { baseUrl, key, upstream } = await setUp(judgeClient);
    // The mock's own control path is not proxied (it is not part of the API): ids come from the mock.
    const pending = await orderIds(upstream.baseUrl, key, 'pending');
    const shipped = await orderIds(upstream.baseUrl, key, 'shipped');
    const suite = await runConformance({
      baseUrl,
      apiKey: key,
      pendingOrders: pending,
      shippedOrders: shipped,
      destructive: true,
    });
    expect(suite.outcome).toBe('pass');
    const closed = await proxy?.close();
    const findings = proxy?.findings() ?? [];
    expect(findings.filter((f) => f.party === 'server').map((f) => f.finding.message)).toEqual([]);
    expect(closed?.result.outcome).toBe('pass');
    expect(closed?.result.summary.requests).toBe(suite.summary.requests);
    if (judgeClient) expect(findings.length).toBeGreaterThan(0);
    else expect(findings).toEqual([]);
    expect(JSON.stringify(closed?.result)).not.toContain(key);
  });
});
