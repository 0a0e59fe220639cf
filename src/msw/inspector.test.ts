/**
 * The inspector under MSW is opt-in: handlers given `/msw/inspector`'s assets serve its page, script and
 * style like the mock on a port; handlers without them answer those paths with a 404 Error that names the
 * import, so the MSW entry a page loads does not carry the inspector's 12 kB unasked.
 */
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INSPECTOR_CSP } from '../mock/inspector.js';
import { createHandlers } from './index.js';
import { inspector } from './inspector.js';

const server = setupServer(
  ...createHandlers({ fixtures: {}, baseUrl: 'http://plain.test/v1' }),
  ...createHandlers({ fixtures: {}, baseUrl: 'http://inspected.test/v1', inspector }),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

describe('the inspector in MSW handlers', () => {
  it.each([
    { name: 'serves the page when given the inspector', origin: 'http://inspected.test', path: '/__mock/' },
    {
      name: 'serves its script when given it',
      origin: 'http://inspected.test',
      path: '/__mock/inspector.js',
    },
    {
      name: 'serves its style when given it',
      origin: 'http://inspected.test',
      path: '/__mock/inspector.css',
    },
  ])('$name', async ({ origin, path }) => {
    const response = await fetch(origin + path);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-security-policy')).toBe(INSPECTOR_CSP);
    expect((await response.text()).length).toBeGreaterThan(100);
  });

  it.each(['/__mock/', '/__mock/inspector.js', '/__mock/inspector.css'])(
    'answers %s without the inspector with a 404 Error naming the import that adds it',
    async (path) => {
      const response = await fetch(`http://plain.test${path}`);
      expect(response.status).toBe(404);
      const body = (await response.json()) as { code: string; message: string };
      expect(body.code).toBe('not_found');
      expect(body.message).toContain(
        "createHandlers({ inspector }), with inspector from 'petstore-contract-toolkit/msw/inspector'",
      );
    },
  );

  it('leaves the control endpoints to the key either way', async () => {
    expect((await fetch('http://plain.test/__mock/state')).status).toBe(401);
    expect((await fetch('http://inspected.test/__mock/state')).status).toBe(401);
  });
});
