// src/mocks.ts
import { setupWorker } from 'msw/browser';
import { createHandlers } from 'petstore-contract-toolkit/msw';
import { inSessionStorage } from 'petstore-contract-toolkit/msw/persist';
import { baseUrl } from './api';

export const mock = createHandlers({
  fixtures: {
    orders: [
      { id: 1, status: 'pending' },
      { id: 2, status: 'shipped' },
    ],
  },
  baseUrl,
  persist: inSessionStorage, // optional: a reload keeps cancels and faults (sessionStorage)
});
export const startMocks = () => setupWorker(...mock).start({ onUnhandledRequest: 'bypass' });
