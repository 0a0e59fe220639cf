/**
 * D14 in a real browser: a page on a local origin uses the mock; a page on any other origin can neither
 * read the mock's state nor change it, although the default key is public. The foreign origin is
 * `http://evil.test:PORT`, mapped to 127.0.0.1 by Chromium's host resolver, so no network is needed and
 * the page is what an attacker's site would be: another origin, same machine as far as addresses go.
 *
 * Chromium and the skip without it (with its reason): test-support/chromium.ts.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createMock, type ListenInfo, type Mock } from './index.js';
import { describeInChromium, launchChromium, pageResult } from './test-support/chromium.js';

// Everything a page might try with the public key; what it saw lands on <body data-result>.
const PAGE = `<!doctype html><meta charset="utf-8"><title>steer</title><script type="module">
const mock = new URL(location.href).searchParams.get('mock');
const auth = { Authorization: 'Bearer petstore-dev-key' };
const json = { ...auth, 'Content-Type': 'application/json' };
const seen = {};
async function run(name, path, init) {
  try {
    const r = await fetch(mock + path, init);
    seen[name] = { status: r.status, text: await r.text() };
  } catch (error) {
    seen[name] = { error: String(error) };
  }
}
await run('list', '/v1/store/orders', { headers: auth });
await run('state', '/__mock/state', { headers: auth });
await run('cancel', '/v1/store/orders/1', { method: 'DELETE', headers: auth });
await run('fault', '/__mock/faults', { method: 'POST', headers: json, body: '{"status":503,"times":100}' });
await run('reset', '/__mock/reset', { method: 'POST', headers: auth });
// A simple request needs no preflight, so it reaches the mock; without a readable answer or a key it must
// change nothing either.
await run('blindReset', '/__mock/reset', { method: 'POST', mode: 'no-cors', body: 'x' });
// Last: once it is set, every answer waits (a few milliseconds, so that the test goes on).
await run('delay', '/__mock/delay', { method: 'PUT', headers: json, body: '{"delayMs":5}' });
document.body.dataset.result = JSON.stringify(seen);
</script>`;

interface Seen {
  status?: number;
  text?: string;
  error?: string;
}

const AUTH = { authorization: 'Bearer petstore-dev-key' };

describeInChromium('pages from a local and a foreign origin in headless Chromium (D14)', () => {
  let mock: Mock;
  let api: ListenInfo;
  let pages: Server;
  let browser: Browser;
  let port = 0;

  async function visit(origin: string): Promise<Record<string, Seen>> {
    const page = await browser.newPage();
    await page.goto(`${origin}/?mock=${encodeURIComponent(api.url)}`);
    const seen = JSON.parse(await pageResult(page));
    await page.close();
    return seen;
  }

  /** The session's orders and faults and the global delay, as a client without Origin sees them. */
  async function snapshot(): Promise<{ state: string; faults: string; delay: string }> {
    const read = async (path: string) => (await fetch(`${api.url}${path}`, { headers: AUTH })).text();
    return {
      state: await read('/__mock/state'),
      faults: await read('/__mock/faults'),
      delay: await read('/__mock/delay'),
    };
  }

  beforeAll(async () => {
    mock = await createMock();
    api = await mock.listen({ port: 0 });
    pages = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE));
    await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
    port = (pages.address() as AddressInfo).port;
    browser = await launchChromium(['--host-resolver-rules=MAP evil.test 127.0.0.1']);
  }, 30_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => pages?.close(resolve));
    await mock?.close();
  });

  it('a page on a foreign origin reads nothing and changes nothing', async () => {
    const before = await snapshot();
    const seen = await visit(`http://evil.test:${port}`);
    for (const name of ['list', 'state', 'cancel', 'delay', 'fault', 'reset']) {
      expect(seen[name]?.error, name).toMatch(/TypeError: Failed to fetch/);
    }
    // An opaque answer: the page learns nothing, and the mock refused the request (no key, foreign origin).
    expect(seen.blindReset).toEqual({ status: 0, text: '' });
    expect(await snapshot()).toEqual(before);
    expect(before.state).toContain('"id":1,"petId":10');
    expect(before.state).toMatch(/"id":1,[^}]*"state":"pending"/);
  });

  it('a page on a local origin reads and steers the mock', async () => {
    const seen = await visit(`http://127.0.0.1:${port}`);
    expect(seen.list?.status).toBe(200);
    expect(JSON.parse(seen.list?.text ?? 'null')).toContainEqual(expect.objectContaining({ id: 1 }));
    expect(seen.state?.status).toBe(200);
    expect(seen.cancel?.status).toBe(204);
    expect(seen.delay?.status).toBe(200);
    expect(seen.fault?.status).toBe(201);
    expect(seen.reset?.status).toBe(200);
    expect((await snapshot()).delay).toBe('{"delayMs":5}');
    await fetch(`${api.url}/__mock/delay`, {
      method: 'PUT',
      headers: { ...AUTH, 'content-type': 'application/json' },
      body: '{"delayMs":0}',
    });
  });
});
