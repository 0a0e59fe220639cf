/**
 * The state inspector under MSW, in headless Chromium: MSW's worker lets page loads through, so `/__mock/`
 * is no page there; the app imports the inspector's script (`import('/__mock/inspector.js')`, answered by
 * the worker like any `/__mock/` request) and it takes over the page, showing the state of the mock that
 * lives in it. Here the examples/browser page stands for the app.
 */
import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { EXAMPLE_API_KEY } from '../../examples/browser/fixtures.js';
import { type ExampleServer, startExampleServer } from '../../examples/browser/serve.js';
import { describeInChromium, launchChromium } from '../mock/test-support/chromium.js';

describeInChromium('the inspector inside a page under MSW, in headless Chromium', () => {
  let server: ExampleServer;
  let browser: Browser;
  let page: Page;
  const notFromWorker: string[] = [];

  beforeAll(async () => {
    server = await startExampleServer(0);
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
    page.on('response', (response) => {
      const path = new URL(response.url()).pathname;
      if (path.startsWith('/__mock/') && !response.fromServiceWorker()) notFromWorker.push(path);
    });
    await page.goto(`${server.url}/`);
    await page.waitForSelector('body[data-ready="true"]', { timeout: 15_000 });
  }, 40_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("shows the page's own mock: an order the app cancelled is cancelled there", async () => {
    await page.locator('#orders tr[data-id="3"] button').click();
    await page
      .locator('#status')
      .filter({ hasText: /^Cancelled order 3\.$/ })
      .waitFor();
    await page.evaluate("import('/__mock/inspector.js')");
    await page.locator('#key').fill(EXAMPLE_API_KEY);
    await page.locator('#key-form button').click();
    const state = page.locator('#orders tr[data-id="3"] .badge');
    await state.filter({ hasText: 'cancelled' }).waitFor();
    expect(await page.locator('#orders tr[data-id="9007199254740993"] .badge').textContent()).toBe('pending');
    mkdirSync('reports', { recursive: true });
    await page.screenshot({ path: 'reports/inspector-msw.png', fullPage: true });
  });

  it('was answered by the service worker, nothing by a server', () => {
    expect(notFromWorker).toEqual([]);
    expect(server.requests.filter((path) => path.startsWith('/__mock/') || path.startsWith('/v1/'))).toEqual(
      [],
    );
  });
});
