/**
 * Starts MSW's service worker with the Pet Store mock's handlers, so the page's own `fetch` calls to
 * `/v1/…` are answered in the browser: keys checked, cancels remembered, errors as the contract's Error.
 */
import { setupWorker } from 'msw/browser';
import { createHandlers } from '../../src/msw/index.js';
import { fixtures } from './fixtures.js';

export async function startMocks(): Promise<void> {
  const worker = setupWorker(...createHandlers({ fixtures, baseUrl: `${location.origin}/v1` }));
  await worker.start({
    serviceWorker: { url: '/mockServiceWorker.js' },
    onUnhandledRequest: 'bypass',
    quiet: true,
  });
}
