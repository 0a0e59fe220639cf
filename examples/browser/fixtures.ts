/**
 * The state the example's mock starts from: the format of a fixture file, as a value. The id above 2^53
 * is a bigint, so it stays exact (D8).
 */
import type { FixtureData } from '../../src/msw/index.js';

/** The example's key. A development key for a mock, not a secret. */
export const EXAMPLE_API_KEY = 'petstore-example-key';

export const fixtures: FixtureData = {
  apiKeys: [EXAMPLE_API_KEY],
  orders: [
    { id: 1, petId: 10, quantity: 1, shipDate: '2026-12-01T10:00:00Z', status: 'pending' },
    { id: 2, petId: 11, quantity: 3, shipDate: '2026-11-02T09:30:00Z', status: 'shipped' },
    { id: 3, petId: 12, quantity: 4, shipDate: '2026-12-03T14:15:00Z', status: 'pending' },
    { id: 9007199254740993n, petId: 11, quantity: 1, shipDate: '2026-12-20T12:00:00Z', status: 'pending' },
  ],
};
