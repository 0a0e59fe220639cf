// src/test/setup.ts (vitest `setupFiles`, environment jsdom)
import '@testing-library/jest-dom/vitest'; // toBeVisible() and the other DOM matchers
import { cleanup } from '@testing-library/react';
import { setupServer } from 'msw/node';
import { createHandlers } from 'petstore-contract-toolkit/msw';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { baseUrl } from '../api';

export const mock = createHandlers({
  fixtures: { orders: [{ id: 1, status: 'pending' }] },
  baseUrl, // the app's own, from src/api.ts
});
const server = setupServer(...mock);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(cleanup); // unmounts what render() mounted: RTL does it alone only with vitest's globals on
afterEach(() => mock.reset()); // the one line of test isolation
afterAll(() => server.close());
