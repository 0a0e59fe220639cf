/** The shared behaviour table through MSW's `setupServer` in Node, with `fetch` as a page would call it. */
import { readFileSync } from 'node:fs';
import { setupServer } from 'msw/node';
import { parse as parseYaml } from 'yaml';
import { DEFAULT_FIXTURES_PATH } from '../mock/fixture-files.js';
import type { FixtureData } from '../mock/fixtures.js';
import { describeBehaviour } from '../mock/test-support/behaviour-table.js';
import { createHandlers } from './index.js';

describeBehaviour('through MSW setupServer', async () => {
  const fixtures = parseYaml(readFileSync(DEFAULT_FIXTURES_PATH, 'utf8'), {
    intAsBigInt: true,
  }) as FixtureData;
  const server = setupServer(...createHandlers({ fixtures, baseUrl: 'http://api.test/v1' }));
  // Anything the handlers do not answer would reach the network: fail instead.
  server.listen({ onUnhandledRequest: 'error' });
  return {
    async send({ method, path, headers, body }) {
      const response = await fetch(`http://api.test${path}`, { method, headers, body });
      return {
        status: response.status,
        header: (name) => response.headers.get(name) ?? undefined,
        text: await response.text(),
      };
    },
    stop: async () => server.close(),
  };
});
