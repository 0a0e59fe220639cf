/**
 * Headless Chromium for the browser tests: Debian's package (`/usr/bin/chromium`, or CHROMIUM_PATH),
 * launched with flags that keep it off the network. Without it a browser test is skipped, with the reason
 * in the test's name and on stderr, so that a newcomer's `npm test` passes and says why; CI sets
 * PETSTORE_REQUIRE_BROWSER=1, which turns a missing browser into a failure instead.
 */
import { existsSync } from 'node:fs';
import { type Browser, chromium, type Page } from 'playwright-core';
import { describe, it } from 'vitest';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Why browser tests cannot run here, or `undefined` when they can. */
export const browserSkipReason: string | undefined = existsSync(CHROMIUM)
  ? undefined
  : `no Chromium at ${CHROMIUM}: install Debian's chromium package or set CHROMIUM_PATH`;

if (browserSkipReason !== undefined && process.env.PETSTORE_REQUIRE_BROWSER) {
  throw new Error(`PETSTORE_REQUIRE_BROWSER is set but there is ${browserSkipReason}`);
}

/**
 * A `describe` that needs Chromium. Without it, one skipped test carries the reason, and stderr says it.
 *
 * @example describeInChromium('the example page', () => { it('lists orders', async () => {}) })
 */
export function describeInChromium(name: string, body: () => void): void {
  if (browserSkipReason === undefined) {
    describe(name, body);
    return;
  }
  const reason = browserSkipReason;
  describe(name, () => {
    it(`skipped: ${reason}`, (context) => {
      process.stderr.write(`${name}: skipped, ${reason}\n`);
      context.skip(reason);
    });
  });
}

/**
 * Launches headless Chromium; the flags keep it off the network this machine does not have. `extraArgs`
 * adds flags, such as `--host-resolver-rules=MAP evil.test 127.0.0.1` for a page on a foreign origin.
 */
export function launchChromium(extraArgs: readonly string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...extraArgs,
    ],
  });
}

/**
 * Waits until the page has put its result in `document.body.dataset.result`, and returns it. A function
 * predicate, never a string: a page whose CSP forbids eval refuses a string (stack-notes.md).
 */
export async function pageResult(page: Page): Promise<string> {
  const handle = await page.waitForFunction(
    () =>
      (globalThis as unknown as { document: { body: { dataset: Record<string, string | undefined> } } })
        .document.body.dataset.result,
    undefined,
    { timeout: 10_000 },
  );
  return String(await handle.jsonValue());
}
