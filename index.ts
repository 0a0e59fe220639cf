/**
 * `petstore-contract-toolkit`: what a user reaches for first. The mock and the suite run in Node; a
 * browser app imports `petstore-contract-toolkit/client` (and `/msw`), which read no file.
 *
 * @example
 * import { createMock, createPetstoreClient, runConformance } from 'petstore-contract-toolkit';
 * const mock = await createMock();
 * const { baseUrl } = await mock.listen({ port: 0 });
 * const client = createPetstoreClient({ baseUrl, apiKey: mock.apiKeys[0] ?? '' });
 */

export {
  createPetstoreClient,
  type Int64String,
  type Order,
  type PetstoreClient,
  type PetstoreClientOptions,
} from './src/client/index.js';
export {
  type ConformanceOptions,
  type ConformanceResult,
  runConformance,
} from './src/conformance/index.js';
export {
  createMock,
  DEFAULT_FIXTURES_PATH,
  DEV_API_KEY,
  type Mock,
  type MockOptions,
} from './src/mock/index.js';
