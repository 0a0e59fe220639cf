/** Test isolation in one line against the mock on a real socket: `afterEach(() => mock.reset())`. */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createMock, type Mock } from './index.js';

let mock: Mock;
let baseUrl = '';
beforeAll(async () => {
  mock = await createMock({ fixtures: { orders: [{ id: 1, status: 'pending' }] }, apiKeys: ['k'] });
  baseUrl = (await mock.listen({ port: 0 })).baseUrl;
});
afterAll(() => mock.close());

const cancel = () =>
  fetch(`${baseUrl}/store/orders/1`, { method: 'DELETE', headers: { authorization: 'Bearer k' } });

describe('two tests that cancel the same order over a socket, with the reset line between them', () => {
  afterEach(() => mock.reset());

  it('the first cancels it (204)', async () => {
    expect((await cancel()).status).toBe(204);
  });

  it('the second cancels it again (204, not 404)', async () => {
    expect((await cancel()).status).toBe(204);
  });
});
