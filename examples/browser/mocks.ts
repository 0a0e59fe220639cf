/**
 * Starts MSW's service worker with the Pet Store mock's handlers, so the page's own `fetch` calls to
 * `/v1/…` are answered in the browser: keys checked, cancels remembered, errors as the contract's Error.
 */
import { setupWorker } from 'msw/browser';
import { createHandlers, type MockHandlers } from '../../src/msw/index.js';
import { inspector } from '../../src/msw/inspector.js';
import { inSessionStorage } from '../../src/msw/persist.js';
import { fixtures } from './fixtures.js';

/** Starts the worker; the handlers it answers with, for the inspector button (main.ts). */
export async function startMocks(): Promise<MockHandlers> {
  // `?persist=session` keeps the mock's state across reloads (in sessionStorage); without it, each load is fresh.
  const persist = new URLSearchParams(location.search).get('persist') === 'session';
  const mock = createHandlers({
    fixtures,
    baseUrl: `${location.origin}/v1`,
    // The state inspector, shown with mountInspector (main.ts): a development page can afford its 12 kB.
    inspector,
    ...(persist ? { persist: inSessionStorage } : {}),
  });
  const worker = setupWorker(...mock);
  await worker.start({
    serviceWorker: { url: '/mockServiceWorker.js' },
    onUnhandledRequest: 'bypass',
    quiet: true,
  });
  return mock;
}
