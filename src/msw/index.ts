/**
 * The stateful mock as MSW (Mock Service Worker) handlers: the same web-standard engine that answers on a
 * socket, so keys are checked, cancels are remembered and every error is the contract's `Error`, in a
 * page (`setupWorker`), in Node tests (`setupServer`), in Storybook. Fixtures are data in the format of a
 * fixture file, checked the same way, with the same messages.
 *
 * @example
 * import { setupServer } from 'msw/node';
 * import { createHandlers } from 'petstore-contract-toolkit/msw';
 * const server = setupServer(...createHandlers({ fixtures: { orders: [{ id: 1, status: 'pending' }] }, baseUrl: 'http://api.test/v1' }));
 * server.listen();
 */
import { type HttpHandler, http } from 'msw';
import { createEngine, type EngineOptions } from '../mock/engine.js';
import { buildFixtures, FIXTURE_DATA_SOURCE, type FixtureData } from '../mock/fixtures.js';

export { DEV_API_KEY, type FixtureData, FixtureError, type FixtureOrder } from '../mock/fixtures.js';

export interface HandlersOptions extends EngineOptions {
  /** The state to start from: the content of a fixture file, as a value (ids as numbers, bigints or decimal strings). */
  fixtures: FixtureData;
  /**
   * Where the API lives, ending in `/v1` (D12): `http://api.test/v1`, or `/v1` for the page's own origin.
   * The control endpoints answer beside it, at `…/__mock/`. Default `/v1`.
   */
  baseUrl?: string;
}

/** The part of `baseUrl` before `/v1`: the handlers answer below `<root>/v1/` and `<root>/__mock/`. */
function rootOf(baseUrl: string): { root: string; prefix: string } {
  const trimmed = baseUrl.replace(/\/+$/, '');
  if (!trimmed.endsWith('/v1')) {
    throw new Error(
      `createHandlers: baseUrl must end in /v1 (the API's base, D12), got ${JSON.stringify(baseUrl)}`,
    );
  }
  const root = trimmed.slice(0, -'/v1'.length);
  // The path before /v1, which the engine does not see: `https://x/api/v1` → `/api`.
  const prefix = /^[a-z][a-z0-9+.-]*:/i.test(root) ? new URL(`${root}/`).pathname.slice(0, -1) : root;
  return { root, prefix };
}

/**
 * MSW handlers answering the Pet Store Orders API v1 and the mock's `/__mock/` control endpoints from one
 * stateful engine. Throws a `FixtureError` naming the entry and the reason when the fixtures are unusable,
 * and an `Error` for a key that can never be sent as a bearer token.
 *
 * @example setupServer(...createHandlers({ fixtures, apiKeys: ['k'], baseUrl: 'http://api.test/v1' }))
 */
export function createHandlers(options: HandlersOptions): HttpHandler[] {
  const fixtures = buildFixtures(options.fixtures, FIXTURE_DATA_SOURCE);
  if (!fixtures.ok) throw fixtures.error;
  const engine = createEngine(fixtures.value, options);
  const { root, prefix } = rootOf(options.baseUrl ?? '/v1');
  const answer = ({ request }: { request: Request }) => {
    const url = new URL(request.url);
    return engine.handle(request, url.pathname.slice(prefix.length) + url.search);
  };
  return [http.all(`${root}/v1/*`, answer), http.all(`${root}/__mock/*`, answer)];
}
