/**
 * Test isolation under a DOM environment (issue 24): jsdom and happy-dom have a `sessionStorage` that lives
 * for the whole test file, so handlers made with `persist: inSessionStorage` (as an app's `src/mocks.ts`
 * shared with its tests has them) keep a cancel across tests unless something clears it. The toolkit's
 * answer is the one documented line, `afterEach(() => mock.reset())`: it clears memory and the saved copy
 * alike. Each `test-isolation.*.test.ts` file runs this under one environment.
 */
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHandlers } from '../../src/msw/index.js';
import { inSessionStorage, type StorageLike } from '../../src/msw/persist.js';

const BASE_URL = 'http://api.test/v1';
const make = () =>
  createHandlers({
    fixtures: { orders: [{ id: 1, status: 'pending' }] },
    baseUrl: BASE_URL,
    persist: inSessionStorage,
  });
const cancel = async () =>
  (
    await fetch(`${BASE_URL}/store/orders/1`, {
      method: 'DELETE',
      headers: { authorization: 'Bearer petstore-dev-key' },
    })
  ).status;

export function describeTestIsolation(environment: 'jsdom' | 'happy-dom'): void {
  describe(`handlers with persist under vitest's ${environment} environment`, () => {
    const mock = make();
    const server = setupServer(...mock);
    beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
    afterEach(async () => {
      await mock.reset(); // the one line of test isolation
      server.resetHandlers(); // MSW's own: drops the handlers a test added with server.use
    });
    afterAll(() => server.close());

    it('cancels order 1, and the cancel is saved in this environment’s sessionStorage', async () => {
      expect(await cancel()).toBe(204);
      const { sessionStorage } = globalThis as unknown as { sessionStorage: StorageLike };
      expect(sessionStorage.getItem(`petstore-mock:${BASE_URL}`)).toContain('"cancelled"');
    });

    it('cancels it again in the next test: the reset line cleared memory and sessionStorage', async () => {
      expect(await cancel()).toBe(204);
    });

    it('starts handlers made in a later test from the fixtures too', async () => {
      server.use(...make());
      expect(await cancel()).toBe(204);
    });

    it('would leak without the reset line: handlers made after a cancel restore it, as a reload does', async () => {
      expect(await cancel()).toBe(204);
      const later = make();
      server.use(...later);
      expect(await cancel()).toBe(404);
      await later.reset();
    });
  });
}
