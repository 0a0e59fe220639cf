/**
 * The shape `createHandlers` returns: an array of handlers `setupServer(...)` takes as before, whose
 * control methods isolate tests in one line, `afterEach(() => mock.reset())`.
 */
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHandlers } from './index.js';

const BASE = 'http://api.test/v1';
const mock = createHandlers({
  fixtures: { orders: [{ id: 1, status: 'pending' }] },
  apiKeys: ['k'],
  baseUrl: BASE,
});
const server = setupServer(...mock);
const cancel = () =>
  fetch(`${BASE}/store/orders/1`, { method: 'DELETE', headers: { authorization: 'Bearer k' } });

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

describe('two tests that cancel the same order, with the reset line between them', () => {
  afterEach(() => mock.reset());

  it('the first cancels it (204)', async () => {
    expect((await cancel()).status).toBe(204);
  });

  it('the second cancels it again (204, not 404)', async () => {
    expect((await cancel()).status).toBe(204);
  });
});

describe('what createHandlers returns', () => {
  it('is the plain array of handlers when spread, logged or listed', () => {
    expect(Array.isArray(mock)).toBe(true);
    expect(Object.keys(mock)).toEqual(['0']);
    expect([...mock]).toEqual(mock.handlers);
  });

  it('sees what the requests did: a fault planned through it answers the next request', async () => {
    await mock.fault({ operation: 'cancelOrder', status: 500 });
    const faulted = await cancel();
    expect(faulted.status).toBe(500);
    expect(((await faulted.json()) as { code: string }).code).toBe('simulated_fault');
    expect((await cancel()).status).toBe(204);
    expect((await mock.orders()).map(({ id, state }) => ({ id, state }))).toEqual([
      { id: '1', state: 'cancelled' },
    ]);
    await mock.reset();
  });
});
