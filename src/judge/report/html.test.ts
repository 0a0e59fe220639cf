/**
 * The HTML report opened in a real headless Chromium with JavaScript off: what a reader sees is read from
 * the DOM, every request the page tries is recorded and refused (none may be tried: the file must be
 * self-contained), and a screenshot is kept under reports/ (git-ignored) for a human look.
 *
 * Chromium is Debian's package (`/usr/bin/chromium`, or CHROMIUM_PATH). Without it the browser tests are
 * skipped with the reason in their name; CI sets PETSTORE_REQUIRE_BROWSER=1, which makes a missing browser
 * a failure instead.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROKEN_SERVERS } from '../../../test-support/servers/broken-servers.js';
import { runSuiteAgainst } from '../../../test-support/servers/run-suite.js';
import type { ConformanceResult } from '../types.js';
import { applyGate } from './gate.js';
import { renderHtml } from './html.js';
import { check, finding, HOSTILE_BODY, resultOf } from './test-support/fixtures.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const available = existsSync(CHROMIUM);
if (!available && process.env.PETSTORE_REQUIRE_BROWSER) {
  throw new Error(`PETSTORE_REQUIRE_BROWSER is set but there is no Chromium at ${CHROMIUM}`);
}
const REPORTS = fileURLToPath(new URL('../../../reports/', import.meta.url));

const hostile = resultOf([
  check('routes.unknown', 'PASS'),
  check('auth.listOrders.no-header', 'FAIL', [
    finding('GET /store/orders → 401: the body is <b>not</b> JSON'),
  ]),
  check('pets.deprecation', 'WARN', [finding('GET /pets/10 → 200: Deprecation is "true"', 200)]),
  check('cancel.pending-order', 'SKIP'),
]);

describe('the HTML report as a file', () => {
  it('escapes everything a target sent and carries no script or external reference', () => {
    const page = renderHtml(hostile);
    expect(page).not.toContain(HOSTILE_BODY);
    expect(page).toContain('&lt;script&gt;window.pwned=1&lt;/script&gt;');
    // Markup only from the report itself: no element that loads anything, no link that leaves the page.
    expect(page).not.toMatch(/<script|<img|<link|<iframe|<object|<embed|\ssrc="|\shref="(?!#)|url\(/i);
    expect(page).toContain(
      `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">`,
    );
  });

  it('shows each schema rule as its path, its message and, muted, the schema path', () => {
    const ruled = finding('GET /store/orders → 200: the body breaks the schema', 200);
    ruled.schemaViolations = [
      { path: '/0/id', message: 'must be integer', schemaPath: '#/properties/id/type', keyword: 'type' },
    ];
    expect(renderHtml(resultOf([check('list.schema', 'FAIL', [ruled])]))).toContain(
      '<li><code>/0/id</code> must be integer <code class="muted">[#/properties/id/type]</code></li>',
    );
  });

  it('says the run fails under --fail-on warn when only warnings were found', () => {
    const warnOnly = resultOf([check('pets.deprecation', 'WARN', [finding('no Deprecation header', 200)])]);
    expect(renderHtml(warnOnly)).toMatch(/<p id="verdict" class="verdict pass">PASSED: /);
    expect(renderHtml(applyGate(warnOnly, 'warn'))).toMatch(
      /<p id="verdict" class="verdict fail">FAILED: .*warnings fail this run \(--fail-on warn\)/,
    );
  });
});

describe.skipIf(!available)('the HTML report in headless Chromium, JavaScript off', () => {
  let browser: Browser;
  let dir: string;
  let real: ConformanceResult;

  /**
   * Opens a page and returns it with every URL it asked for besides the file itself. `edit` changes the
   * HTML first: the tests remove the Content-Security-Policy, under which Chromium would refuse a load
   * before it became a request, so that what the page itself tries is seen.
   */
  async function open(
    result: ConformanceResult,
    name: string,
    edit: (html: string) => string = (h) => h,
  ): Promise<{ page: Page; attempted: string[] }> {
    const path = join(dir, `${name}.html`);
    writeFileSync(path, edit(renderHtml(result)));
    const context = await browser.newContext({
      javaScriptEnabled: false,
      viewport: { width: 1280, height: 900 },
    });
    const attempted: string[] = [];
    const own = pathToFileURL(path).href;
    context.on('request', (request) => {
      if (request.url() !== own) attempted.push(request.url());
    });
    // Refuse anything that would leave the file, so a test run never depends on the network.
    await context.route(/^(?!file:)/, (route) => route.abort());
    const page = await context.newPage();
    await page.goto(own, { waitUntil: 'load' });
    return { page, attempted };
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'conformance-html-'));
    const server = BROKEN_SERVERS.find((s) => s.name === 'auth-401-plain-text');
    if (!server) throw new Error('broken server auth-401-plain-text is missing');
    real = await runSuiteAgainst(server.behaviour);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    });
  }, 30_000);

  afterAll(async () => {
    await browser?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('shows the summary, the coverage line, the causes and every check, failures first', async () => {
    const { page, attempted } = await open(real, 'real');
    const s = real.summary;
    expect(await page.locator('#verdict').textContent()).toBe(
      `FAILED: ${s.passed} passed, ${s.failed} failed, ${s.warned} warned, ${s.skipped} skipped (${s.total} checks; ${s.requests} requests in ${(real.durationMs / 1000).toFixed(1)} s)`,
    );
    expect(await page.locator('#coverage').textContent()).toMatch(
      /^Spec coverage: \d+\/\d+ documented responses: listOrders/,
    );
    // One cause for the plain-text 401 that every auth check hit.
    const cause = page.locator('#causes article').first();
    expect(await cause.locator('h3').textContent()).toMatch(
      /^FAIL in \d+ checks, one cause \(401\): the error body is `text\/plain`/,
    );
    expect(await cause.locator('pre.curl').textContent()).toMatch(/^curl -i -X GET /);
    // Every check, each with its level and citation, the failures at the top.
    const rows = page.locator('#checks tbody tr[data-outcome]');
    expect(await rows.count()).toBe(real.checks.length);
    const outcomes = await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-outcome')));
    const rank = { FAIL: 0, WARN: 1, SKIP: 2, PASS: 3 } as Record<string, number>;
    expect(outcomes.map((o) => rank[o ?? ''])).toEqual([...outcomes.map((o) => rank[o ?? ''])].sort());
    expect(outcomes[0]).toBe('FAIL');
    const first = await rows.first().locator('td').allTextContents();
    const failed = real.checks.find((c) => c.outcome === 'FAIL');
    expect(first.slice(2, 4)).toEqual([failed?.level, failed?.citation]);
    // The request and the response excerpt of a failure, redacted, and its curl line.
    const details = page.locator(`tr.details[data-for="${failed?.id}"]`);
    expect(await details.textContent()).toContain('Authorization: (none)');
    expect(await details.locator('pre.curl').first().textContent()).toContain('curl -i -X GET');
    expect(await details.textContent()).toContain('Unauthorized');
    expect(attempted).toEqual([]);
    mkdirSync(REPORTS, { recursive: true });
    await page.screenshot({ path: join(REPORTS, 'conformance-html.png'), fullPage: true });
    await page.context().close();
  });

  const withoutCsp = (page: string) => page.replace(/<meta http-equiv="Content-Security-Policy"[^>]*>/, '');

  it('records a request the page tries (the check of the two tests below can fail)', async () => {
    const { page, attempted } = await open(hostile, 'control', (h) =>
      withoutCsp(h).replace('<main>', '<main><img src="http://127.0.0.1:9/tracker.png">'),
    );
    expect(attempted).toEqual(['http://127.0.0.1:9/tracker.png']);
    await page.context().close();
  });

  it('shows a hostile body as text: no element, no script, no request', async () => {
    const { page, attempted } = await open(hostile, 'hostile', withoutCsp);
    expect(
      await page.locator('pre').filter({ hasText: '<script>window.pwned=1</script>' }).count(),
    ).toBeGreaterThan(0);
    expect(await page.locator('script, img, iframe, link').count()).toBe(0);
    expect(await page.locator('#causes dd').first().textContent()).toBe(
      'GET /store/orders → 401: the body is <b>not</b> JSON',
    );
    expect(attempted).toEqual([]);
    await page.context().close();
  });
});

if (!available) {
  describe('the HTML report in headless Chromium', () => {
    it.skip(`is skipped: no Chromium at ${CHROMIUM} (set CHROMIUM_PATH; PETSTORE_REQUIRE_BROWSER=1 makes this a failure)`, () => {});
  });
}
