/**
 * `persist: inSessionStorage` in a real headless Chromium, on examples/browser opened with `?persist=session`: a
 * cancelled order stays cancelled after a reload; without the option, a reload starts from the fixtures.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type ExampleServer, startExampleServer } from '../../examples/browser/serve.js';
import { describeInChromium, launchChromium } from '../mock/test-support/chromium.js';

describeInChromium('the browser example across reloads, in headless Chromium', () => {
  let server: ExampleServer;
  let browser: Browser;

  const ids = async (page: Page) =>
    Promise.all((await page.locator('#orders tr').all()).map((row) => row.getAttribute('data-id')));
  const ready = (page: Page) => page.waitForSelector('body[data-ready="true"]', { timeout: 15_000 });

  /** Opens the page, cancels order 3, reloads, and gives the ids listed after the reload. */
  async function cancelThenReload(query: string): Promise<(string | null)[]> {
    const page = await browser.newPage();
    await page.goto(`${server.url}/${query}`);
    await ready(page);
    expect(await ids(page)).toContain('3');
    await page.locator('#orders tr[data-id="3"] button').click();
    await page
      .locator('#status')
      .filter({ hasText: /^Cancelled order 3\.$/ })
      .waitFor();
    await page.reload();
    await ready(page);
    const after = await ids(page);
    await page.close();
    return after;
  }

  beforeAll(async () => {
    server = await startExampleServer(0);
    browser = await launchChromium();
  }, 40_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('keeps a cancelled order cancelled across a reload with persist: inSessionStorage', async () => {
    expect(await cancelThenReload('?persist=session')).toEqual(['1', '2', '9007199254740993']);
  });

  it('starts from the fixtures at every load by default', async () => {
    expect(await cancelThenReload('')).toEqual(['1', '2', '3', '9007199254740993']);
  });
});
