/**
 * The front-end test setup of issue 16: a typed client made when its module loads, before
 * `server.listen()` patches `fetch`. Each `late-fetch.*.test.ts` file runs it under one vitest
 * environment; vitest loads this module afresh per test file, so each gets its own client and server.
 */
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPetstoreClient } from '../../src/client/index.js';
import { createHandlers } from '../../src/msw/index.js';

const BASE_URL = 'http://api.test/v1';

// Made at import time, as an application's `api.ts` does: before any test hook has run.
const client = createPetstoreClient({ baseUrl: BASE_URL, apiKey: 'k' });

const server = setupServer(
  ...createHandlers({
    fixtures: {
      orders: [
        { id: 1, status: 'pending' },
        { id: 9007199254740993n, status: 'shipped' },
      ],
    },
    apiKeys: ['k'],
    baseUrl: BASE_URL,
  }),
);

/** What tells the environments apart from inside a test: a DOM's `window` and its own user agent. */
function environmentName(): string {
  const page = globalThis as { window?: unknown; navigator?: { userAgent?: string } };
  if (page.window === undefined) return 'node';
  const agent = page.navigator?.userAgent ?? '';
  if (/happy-?dom/i.test(agent)) return 'happy-dom';
  return /jsdom/i.test(agent) ? 'jsdom' : `an unknown DOM (${agent})`;
}

export function describeModuleLevelClient(environment: 'jsdom' | 'node' | 'happy-dom'): void {
  describe(`a client made at module level, under vitest's ${environment} environment`, () => {
    // `error`: a request MSW does not answer fails the test instead of reaching for the network.
    beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
    afterAll(() => server.close());

    it(`runs under ${environment}`, () => {
      expect(environmentName()).toBe(environment);
    });

    it('is answered by the handlers set up after it was made', async () => {
      const { data, error, response } = await client.GET('/store/orders');
      expect(error).toBeUndefined();
      expect(response.status).toBe(200);
      expect(data?.map((order) => order.id)).toEqual(['1', '9007199254740993']);
    });

    it('reaches the same state on a second request: a cancel is remembered', async () => {
      const cancelled = await client.DELETE('/store/orders/{orderId}', {
        params: { path: { orderId: '1' } },
      });
      expect(cancelled.response.status).toBe(204);
      const again = await client.DELETE('/store/orders/{orderId}', { params: { path: { orderId: '1' } } });
      expect(again.response.status).toBe(404);
      expect(again.error?.code).toBe('order_not_found');
    });
  });
}
