/**
 * examples/browser in a real headless Chromium: the page lists orders and cancels them against the Pet
 * Store mock running in the page under MSW's service worker. Nothing reaches a server for the API: the
 * example's own server sees only the page's files, and any request leaving the page's origin is aborted
 * and counted. The page is served under `Content-Security-Policy: script-src 'self'`, and any violation
 * Chromium reports (console or `securitypolicyviolation`) fails the run: a mock that compiled a schema
 * with `new Function` would render no rows. A screenshot is kept in reports/ as an artifact.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { EXAMPLE_CSP, type ExampleServer, startExampleServer } from '../../examples/browser/serve.js';
import { packageRoot } from '../contract/package-root.js';
import { describeInChromium, launchChromium } from '../mock/test-support/chromium.js';

const ROOT = packageRoot();
const PAGE_FILES = ['/', '/main.js', '/mockServiceWorker.js', '/favicon.ico'];

it('the example type-checks against the DOM and the toolkit', () => {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  // Throws with tsc's output when the example does not compile.
  execFileSync(process.execPath, [tsc, '-p', join(ROOT, 'examples', 'browser')], {
    cwd: ROOT,
    stdio: 'pipe',
  });
});

describeInChromium('the browser example (examples/browser) in headless Chromium, mocked by MSW', () => {
  let server: ExampleServer;
  let browser: Browser;
  let page: Page;
  const leftOrigin: string[] = [];
  const notFromWorker: string[] = [];
  /** What Chromium said against the policy, from the console, page errors and violation events. */
  const violations: string[] = [];
  let servedPolicy: string | undefined;

  const status = () => page.locator('#status').textContent();
  const ids = async () =>
    Promise.all((await page.locator('#orders tr').all()).map((row) => row.getAttribute('data-id')));
  const statusShows = (text: RegExp) => page.locator('#status').filter({ hasText: text }).waitFor();
  const cancel = (id: string) => page.locator(`#orders tr[data-id="${id}"] button`).click();

  beforeAll(async () => {
    server = await startExampleServer(0);
    browser = await launchChromium();
    const context = await browser.newContext();
    await context.route('**/*', (route) => {
      const url = route.request().url();
      if (new URL(url).origin === server.url) return route.continue();
      leftOrigin.push(url);
      return route.abort();
    });
    page = await context.newPage();
    page.on('console', (message) => {
      if (/Content Security Policy|unsafe-eval/i.test(message.text())) violations.push(message.text());
    });
    page.on('pageerror', (error) => violations.push(`page error: ${error.message}`));
    await page.exposeFunction('reportViolation', (text: string) => violations.push(text));
    // Runs before the page's own script (as text: the page's DOM is not this file's).
    await page.addInitScript({
      content: `document.addEventListener('securitypolicyviolation', (event) =>
        window.reportViolation('securitypolicyviolation: ' + event.violatedDirective + ' ' + event.blockedURI));`,
    });
    page.on('response', (response) => {
      const path = new URL(response.url()).pathname;
      if ((path.startsWith('/v1/') || path.startsWith('/__mock/')) && !response.fromServiceWorker()) {
        notFromWorker.push(path);
      }
    });
    const landing = await page.goto(`${server.url}/`);
    servedPolicy = landing?.headers()['content-security-policy'];
    await page.waitForSelector('body[data-ready="true"]', { timeout: 15_000 });
  }, 40_000);

  afterAll(async () => {
    if (page) {
      mkdirSync(join(ROOT, 'reports'), { recursive: true });
      await page.screenshot({ path: join(ROOT, 'reports', 'browser-example.png'), fullPage: true });
    }
    await browser?.close();
    await server?.close();
  });

  it("is served under Content-Security-Policy: script-src 'self'", () => {
    expect(servedPolicy).toBe(EXAMPLE_CSP);
    expect(EXAMPLE_CSP).toBe("script-src 'self'");
  });

  it('renders the list from the fixtures, the id above 2^53 with every digit', async () => {
    expect(await ids()).toEqual(['1', '2', '3', '9007199254740993']);
    expect(await status()).toBe('4 orders');
  });

  it('removes a pending order when it is cancelled', async () => {
    await cancel('3');
    await statusShows(/^Cancelled order 3\.$/);
    expect(await ids()).toEqual(['1', '2', '9007199254740993']);
  });

  it("shows the 409 Error's message when a shipped order is cancelled", async () => {
    await cancel('2');
    await statusShows(/^409:/);
    expect(await status()).toBe('409: Order 2 has already shipped and cannot be cancelled.');
    expect(await ids()).toContain('2');
  });

  it('round-trips the id 9007199254740993 exactly: listed, cancelled by that id, gone', async () => {
    await cancel('9007199254740993');
    await statusShows(/^Cancelled order 9007199254740993\.$/);
    expect(await ids()).toEqual(['1', '2']);
  });

  it('shows the 401 when the page sends no key', async () => {
    await page.locator('#without-key').check();
    await page.locator('#reload').click();
    await statusShows(/^401:/);
    expect(await status()).toBe(
      '401: Missing or invalid API key. Send the header "Authorization: Bearer <API_KEY>".',
    );
    expect(await ids()).toEqual([]);
    await page.locator('#without-key').uncheck();
    await page.locator('#reload').click();
    await statusShows(/^2 orders$/);
  });

  it('ran with no Content-Security-Policy violation: no eval, no new Function, no blocked script', () => {
    expect(violations).toEqual([]);
  });

  it('sent nothing to the network: the API was answered by the service worker', () => {
    expect(leftOrigin).toEqual([]);
    expect(notFromWorker).toEqual([]);
    expect(server.requests.filter((path) => !PAGE_FILES.includes(path))).toEqual([]);
    expect(server.requests).toContain('/mockServiceWorker.js');
  });
});
