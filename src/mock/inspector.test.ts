/**
 * The state inspector (`GET /__mock/`): served without a key but holding none, under a strict CSP, refused
 * to a foreign origin like every control endpoint (D14); and, in headless Chromium against a real mock on
 * a port, a developer enters the key, sees the orders, cancels one, plans a fault and resets the session.
 * The screenshot is kept as reports/inspector.png.
 *
 * Chromium and the skip without it (with its reason): test-support/chromium.ts.
 */
import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { v2Draft } from '../../test-support/contracts/v2-draft.js';
import { loadContract } from '../contract/compile.js';
import { createMock, type ListenInfo, type Mock } from './index.js';
import { INSPECTOR_CSP } from './inspector.js';
import { describeInChromium, launchChromium } from './test-support/chromium.js';

const KEY = 'petstore-dev-key';
type Dataset = Record<string, string | undefined>;
type PageGlobal = {
  document: {
    querySelector(selector: string): { dataset: Dataset; shadowRoot: { innerHTML: string } } | null;
  };
};
/** When the inspector last showed fresh state; its script sets it on its element after every refresh. */
const loaded = () =>
  (globalThis as unknown as PageGlobal).document.querySelector('[data-petstore-inspector]')?.dataset.loaded ??
  '';
const AUTH = { authorization: `Bearer ${KEY}` };

describe('the inspector as the mock serves it', () => {
  let mock: Mock;
  beforeAll(async () => {
    mock = await createMock();
  });
  const get = (path: string, headers: Record<string, string> = {}) =>
    mock.handle(new Request(`http://mock.test${path}`, { headers }));

  it.each([
    { path: '/__mock/', type: 'text/html; charset=utf-8' },
    { path: '/__mock/inspector.js', type: 'text/javascript; charset=utf-8' },
    { path: '/__mock/inspector.css', type: 'text/css; charset=utf-8' },
  ])('serves $path without a key, under the strict CSP and never in a frame', async ({ path, type }) => {
    const response = await get(path);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(type);
    expect(response.headers.get('content-security-policy')).toBe(INSPECTOR_CSP);
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(await response.text()).not.toContain(KEY);
  });

  it('refuses it to a page on a foreign origin, as every control endpoint (D14)', async () => {
    const response = await get('/__mock/', { origin: 'http://evil.test' });
    expect(response.status).toBe(403);
    expect(((await response.json()) as { code: string }).code).toBe('origin_not_allowed');
  });

  it('cancels under the base path of the contract it serves, not a fixed /v1', async () => {
    const v2 = loadContract(v2Draft());
    if (!v2.ok) throw new Error(v2.error);
    const served = await createMock({ contract: v2.value });
    const script = await (await served.handle(new Request('http://mock.test/__mock/inspector.js'))).text();
    expect(script).toContain('const API_BASE = "/v2";');
    expect(script).not.toContain('/v1');
  });

  it('serves nothing else below /__mock/ without a key', async () => {
    expect((await get('/__mock/state')).status).toBe(401);
    expect((await get('/__mock/inspector.html')).status).toBe(401);
  });
});

describeInChromium('the inspector in headless Chromium', () => {
  let mock: Mock;
  let api: ListenInfo;
  let browser: Browser;
  let page: Page;
  const violations: string[] = [];

  const stateOf = (id: string) => page.locator(`#orders tr[data-id="${id}"] .badge`).textContent();
  /** Runs a click and waits for the page to show the state that follows it. */
  async function andWait(action: () => Promise<void>): Promise<void> {
    const before = await page.evaluate(loaded);
    await action();
    // A function, not a string: the page's CSP forbids evaluating strings, and that is the point.
    await page.waitForFunction(
      (was) =>
        ((globalThis as unknown as PageGlobal).document.querySelector('[data-petstore-inspector]')?.dataset
          .loaded ?? '') !== was,
      before,
    );
  }

  beforeAll(async () => {
    mock = await createMock();
    api = await mock.listen({ port: 0 });
    // A session whose name is markup: the page must show it as text.
    await fetch(`${api.baseUrl}/store/orders`, { headers: { ...AUTH, 'x-mock-session': '<b>bold</b>' } });
    await fetch(`${api.baseUrl}/store/orders/2`, { method: 'DELETE', headers: AUTH });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1100, height: 1200 } });
    page.on('console', (message) => {
      if (/Content Security Policy|Refused/i.test(message.text())) violations.push(message.text());
    });
    await page.goto(`${api.url}/__mock/`);
  }, 30_000);

  afterAll(async () => {
    await browser?.close();
    await mock?.close();
  });

  it('asks for the key before its first request: no 401 on the first view', async () => {
    await page
      .locator('#status')
      .filter({ hasText: /Enter the mock's API key/ })
      .waitFor();
    expect(await page.locator('#status').getAttribute('class')).toBe('');
    expect(await page.locator('#key-state').textContent()).toBe('Key: none yet');
    // The inspector sent nothing without a key: no 401 for /__mock/ (the old first view had one; Chromium's
    // own favicon request is not the inspector's).
    expect(
      (await mock.requests()).filter((entry) => entry.path.startsWith('/__mock/') && entry.status === 401),
    ).toEqual([]);
  });

  it('says a key is in use once entered, and keeps the key itself out of the page', async () => {
    await andWait(async () => {
      await page.fill('#key', KEY);
      await page.click('#key-form button');
    });
    expect(await page.locator('#key-state').textContent()).toBe('Key: set for this tab');
    expect(await page.locator('#key').getAttribute('placeholder')).toBe(
      'key set; type another to replace it',
    );
    expect(await page.locator('#key').inputValue()).toBe('');
    const shown = await page.evaluate(
      () =>
        (globalThis as unknown as PageGlobal).document.querySelector('[data-petstore-inspector]')?.shadowRoot
          .innerHTML ?? '',
    );
    expect(shown).toContain('Key: set for this tab');
    expect(shown).not.toContain(KEY);
    expect(await page.content()).not.toContain(KEY);
  });

  it('says where the fixtures came from', async () => {
    expect(await page.locator('#source').textContent()).toMatch(/^Fixtures: .*default\.yaml$/);
  });

  it('shows every order with its state, ids above 2^53 exact', async () => {
    expect(await page.locator('#orders tbody tr').count()).toBe(14);
    expect(await stateOf('1')).toBe('pending');
    expect(await stateOf('2')).toBe('shipped');
    expect(await stateOf('12')).toBe('cancelled');
    expect(await stateOf('9007199254740993')).toBe('pending');
  });

  it('shows the request timeline with status and Error code', async () => {
    const row = page.locator('#requests tbody tr', { hasText: 'DELETE /v1/store/orders/2' });
    expect(await row.locator('td').allTextContents()).toEqual([
      expect.any(String),
      'DELETE /v1/store/orders/2',
      '409',
      'order_already_shipped',
      expect.any(String),
    ]);
  });

  it('shows a session name that is markup as text', async () => {
    expect(await page.locator('#session option').allTextContents()).toEqual(['default', '<b>bold</b>']);
    expect(await page.locator('b').count()).toBe(0);
  });

  it('cancels an order with its button, through the API', async () => {
    await andWait(() => page.click('#orders tr[data-id="9007199254740993"] button.cancel'));
    expect(await stateOf('9007199254740993')).toBe('cancelled');
    expect((await mock.orders()).find((order) => order.id === '9007199254740993')?.state).toBe('cancelled');
  });

  it('plans a fault that the next request meets', async () => {
    await page.selectOption('#fault-operation', 'listOrders');
    await page.fill('#fault-status', '503');
    await page.fill('#fault-times', '2');
    await andWait(() => page.click('#fault-form button[type=submit]'));
    expect(await page.locator('#faults tbody td').allTextContents()).toEqual([
      '1',
      'listOrders',
      'answer 503',
      '0 ms',
      '2',
    ]);
    expect(await mock.faults()).toEqual([
      { id: 1, operation: 'listOrders', status: 503, delayMs: 0, remaining: 2 },
    ]);
    const list = await fetch(`${api.baseUrl}/store/orders`, { headers: AUTH });
    expect(list.status).toBe(503);
    await andWait(() => page.click('#refresh'));
    const row = page.locator('#requests tbody tr').first();
    expect(await row.locator('td').allTextContents()).toEqual([
      expect.any(String),
      'GET /v1/store/orders',
      '503',
      'simulated_fault',
      expect.any(String),
    ]);
    mkdirSync('reports', { recursive: true });
    await page.screenshot({ path: 'reports/inspector.png', fullPage: true });
  });

  it('resets the session: orders back to the fixtures, faults gone', async () => {
    await andWait(() => page.click('#reset'));
    expect(await stateOf('1')).toBe('pending');
    expect(await stateOf('9007199254740993')).toBe('pending');
    expect(await page.locator('#faults tbody td').allTextContents()).toEqual(['No faults planned.']);
    expect(await mock.faults()).toEqual([]);
  });

  it('ran under its CSP without a single violation', () => {
    expect(violations).toEqual([]);
  });
});
