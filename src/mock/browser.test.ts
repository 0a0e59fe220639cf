/**
 * A front-end page on another origin uses the mock from a real headless Chromium (D14): the preflight
 * passes without a key, the page can read every body (errors included) and the headers the mock exposes.
 * This is what a front-end team's app does all day, and no Node client checks CORS the way a browser does.
 *
 * Chromium and the skip without it (with its reason): test-support/chromium.ts.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createMock, type ListenInfo, type Mock } from './index.js';
import { describeInChromium, launchChromium, pageResult } from './test-support/chromium.js';

// The page runs these requests in order and leaves what it saw on <body data-result>.
const PAGE = `<!doctype html><meta charset="utf-8"><title>orders</title><script type="module">
const api = new URL(location.href).searchParams.get('api');
const auth = { Authorization: 'Bearer petstore-dev-key' };
const seen = {};
async function run(name, path, init) {
  try {
    const r = await fetch(api + path, init);
    const text = await r.text();
    seen[name] = { status: r.status, text, headers: Object.fromEntries(['allow', 'deprecation', 'sunset', 'www-authenticate', 'content-type', 'preference-applied', 'x-mock-fault'].map((h) => [h, r.headers.get(h)])) };
  } catch (error) {
    seen[name] = { error: String(error) };
  }
}
await run('list', '/store/orders', { headers: auth });
await run('cancel', '/store/orders/1', { method: 'DELETE', headers: auth });
await run('cancelAgain', '/store/orders/1', { method: 'DELETE', headers: auth });
await run('shipped', '/store/orders/2', { method: 'DELETE', headers: auth });
await run('noKey', '/store/orders', {});
await run('pet', '/pets/10', { headers: auth });
await run('method', '/store/orders', { method: 'PUT', headers: auth });
// What front-end apps add: a tracing header (a preflight the page cannot skip) and cookies.
await run('traced', '/store/orders', { headers: { ...auth, 'X-Request-Id': 'trace-1' }, credentials: 'include' });
await run('simulated', '/store/orders', { headers: { ...auth, Prefer: 'code=503' }, credentials: 'include' });
await run('planDrop', '/../__mock/faults', { method: 'POST', headers: { ...auth, 'Content-Type': 'application/json' }, body: '{"operation":"listOrders","drop":true}' });
await run('dropped', '/store/orders', { headers: auth });
await run('afterDrop', '/store/orders', { headers: auth, credentials: 'include' });
document.body.dataset.result = JSON.stringify(seen);
</script>`;

interface Seen {
  status?: number;
  text?: string;
  error?: string;
  headers?: Record<string, string | null>;
}

describeInChromium('a page on another origin in headless Chromium (D14)', () => {
  let mock: Mock;
  let api: ListenInfo;
  let pages: Server;
  let browser: Browser;
  let seen: Record<string, Seen>;

  beforeAll(async () => {
    mock = await createMock();
    api = await mock.listen({ port: 0 });
    pages = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE));
    await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
    browser = await launchChromium();
    const page = await browser.newPage();
    const origin = `http://127.0.0.1:${(pages.address() as AddressInfo).port}`;
    await page.goto(`${origin}/?api=${encodeURIComponent(api.baseUrl)}`);
    seen = JSON.parse(await pageResult(page));
  }, 30_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => pages?.close(resolve));
    await mock?.close();
  });

  it('lists orders with the key, after a preflight that needed none', async () => {
    expect(seen.list?.error).toBeUndefined();
    expect(seen.list?.status).toBe(200);
    expect(JSON.parse(seen.list?.text ?? 'null')).toContainEqual(
      expect.objectContaining({ id: 1, complete: false }),
    );
    const log = await fetch(`${api.url}/__mock/requests`, {
      headers: { authorization: 'Bearer petstore-dev-key' },
    });
    const { requests } = (await log.json()) as {
      requests: Array<{ method: string; path: string; status: number }>;
    };
    expect(requests).toContainEqual(
      expect.objectContaining({ method: 'OPTIONS', path: '/v1/store/orders', status: 204 }),
    );
  });

  it('cancels a pending order (204, empty), then gets 404 for it (D2)', () => {
    expect(seen.cancel).toMatchObject({ status: 204, text: '' });
    expect(seen.cancelAgain?.status).toBe(404);
    expect(JSON.parse(seen.cancelAgain?.text ?? 'null')).toMatchObject({
      code: 'order_not_found',
      status: 404,
    });
  });

  it('reads the Error body of a refused cancel (409, D3)', () => {
    expect(seen.shipped?.status).toBe(409);
    expect(JSON.parse(seen.shipped?.text ?? 'null')).toMatchObject({
      code: 'order_already_shipped',
      status: 409,
    });
  });

  it('reads the 401 Error body and WWW-Authenticate without a key', () => {
    expect(seen.noKey?.status).toBe(401);
    expect(JSON.parse(seen.noKey?.text ?? 'null')).toMatchObject({ code: 'unauthorized', status: 401 });
    expect(seen.noKey?.headers?.['www-authenticate']).toMatch(/^Bearer/);
    expect(seen.noKey?.headers?.['content-type']).toBe('application/json');
  });

  it('exposes the Deprecation and Sunset headers of the pets read (D11)', () => {
    expect(seen.pet?.status).toBe(200);
    expect(seen.pet?.headers?.deprecation).toMatch(/^@\d+$/);
    expect(seen.pet?.headers?.sunset).toMatch(/GMT$/);
  });

  it("sends a tracing header with credentials: 'include' after a preflight that reflects it (D14)", async () => {
    expect(seen.traced?.error).toBeUndefined();
    expect(seen.traced?.status).toBe(200);
    const log = await fetch(`${api.url}/__mock/requests`, {
      headers: { authorization: 'Bearer petstore-dev-key' },
    });
    const { requests } = (await log.json()) as { requests: Array<{ method: string; status: number }> };
    // The custom header forces a preflight for the GET; the page's plain GETs need none.
    expect(requests.filter((r) => r.method === 'OPTIONS').length).toBeGreaterThanOrEqual(2);
  });

  it('reads a simulated 503 and its fault marker (D18)', () => {
    expect(seen.simulated?.status).toBe(503);
    expect(JSON.parse(seen.simulated?.text ?? 'null')).toMatchObject({
      code: 'simulated_fault',
      status: 503,
    });
    expect(seen.simulated?.headers?.['x-mock-fault']).toBe('prefer');
    expect(seen.simulated?.headers?.['preference-applied']).toBe('code=503');
  });

  it('sees a dropped connection as the network error fetch gives, then an answer again (D18)', () => {
    expect(seen.planDrop?.status).toBe(201);
    expect(seen.dropped?.error).toMatch(/TypeError: Failed to fetch/);
    expect(seen.afterDrop?.status).toBe(200);
  });

  it('sees a 405 with Allow for an undocumented method (D10)', () => {
    expect(seen.method?.status).toBe(405);
    expect(seen.method?.headers?.allow).toContain('GET');
  });
});
