/**
 * The state inspector inside the app under MSW, in headless Chromium (issue 24): the examples/browser page
 * stands for the app. Its button calls `mountInspector(mock)`, which imports the inspector's script (the
 * worker answers it like any `/__mock/` request) and shows it over the app, with the handlers' key: the
 * app stays, the timeline holds what the app did before, and no request goes out without the key.
 */
import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { EXAMPLE_API_KEY } from '../../examples/browser/fixtures.js';
import { type ExampleServer, startExampleServer } from '../../examples/browser/serve.js';
import { describeInChromium, launchChromium } from '../mock/test-support/chromium.js';

/** The inspector's own elements: its shadow root, which Playwright's CSS selectors enter. */
const IN = '[data-petstore-inspector]';

describeInChromium('the inspector inside an app under MSW, in headless Chromium', () => {
  let server: ExampleServer;
  let browser: Browser;
  let page: Page;
  const notFromWorker: string[] = [];
  const violations: string[] = [];

  beforeAll(async () => {
    server = await startExampleServer(0);
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
    page.on('response', (response) => {
      const path = new URL(response.url()).pathname;
      if (path.startsWith('/__mock/') && !response.fromServiceWorker()) notFromWorker.push(path);
    });
    page.on('console', (message) => {
      if (/Content Security Policy|Refused/i.test(message.text())) violations.push(message.text());
    });
    await page.goto(`${server.url}/`);
    await page.waitForSelector('body[data-ready="true"]', { timeout: 15_000 });
  }, 40_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("opens over the app with the handlers' key, the app and its timeline kept", async () => {
    await page.locator('#orders tr[data-id="3"] button').click();
    await page
      .locator('#status')
      .filter({ hasText: /^Cancelled order 3\.$/ })
      .waitFor();
    await page.locator('#inspect').click();
    await page.locator(`${IN} #orders tr[data-id="3"] .badge`).filter({ hasText: 'cancelled' }).waitFor();
    expect(await page.locator(`${IN} #key-state`).textContent()).toBe("Key: the handlers' key");
    expect(await page.locator(`${IN} #key-form`).isHidden()).toBe(true);
    const shown = await page
      .locator(IN)
      .evaluate((host) => (host as unknown as { shadowRoot: { innerHTML: string } }).shadowRoot.innerHTML);
    expect(shown).not.toContain(EXAMPLE_API_KEY);
    // The app is still there, beside the panel, and the timeline shows what it did before.
    expect(await page.locator('h1').first().textContent()).toBe('Orders');
    expect(await page.locator('body > table #orders tr').count()).toBe(3);
    const cancel = page.locator(`${IN} #requests tbody tr`, { hasText: 'DELETE /v1/store/orders/3' });
    expect(await cancel.locator('td').nth(2).textContent()).toBe('204');
    const statuses = await page.locator(`${IN} #requests tbody td:nth-child(3)`).allTextContents();
    expect(statuses).not.toContain('401');
    expect(await page.locator(`${IN} #status`).getAttribute('class')).toBe('');
    mkdirSync('reports', { recursive: true });
    await page.screenshot({ path: 'reports/inspector-msw.png', fullPage: true });
  });

  it('cancels through the same mock the app uses', async () => {
    await page.locator(`${IN} #orders tr[data-id="9007199254740993"] button.cancel`).click();
    await page
      .locator(`${IN} #orders tr[data-id="9007199254740993"] .badge`)
      .filter({ hasText: 'cancelled' })
      .waitFor();
  });

  it('closes, leaving the app, which sees the cancel', async () => {
    await page.locator(`${IN} #close`).click();
    expect(await page.locator(IN).count()).toBe(0);
    await page.locator('#reload').click();
    await page
      .locator('#status')
      .filter({ hasText: /^2 orders$/ })
      .waitFor();
    expect(await page.locator('body > table #orders tr[data-id="9007199254740993"]').count()).toBe(0);
  });

  it('mounts as a panel in an element of the app', async () => {
    await page.locator('#inspect-here').click();
    await page.locator(`#inspector ${IN} #orders tr[data-id="1"]`).waitFor();
    expect(await page.locator(`#inspector ${IN} #close`).isHidden()).toBe(true);
  });

  it("was answered by the service worker, nothing by a server, under the app's CSP", () => {
    expect(notFromWorker).toEqual([]);
    expect(server.requests.filter((path) => path.startsWith('/__mock/') || path.startsWith('/v1/'))).toEqual(
      [],
    );
    expect(violations).toEqual([]);
  });
});
