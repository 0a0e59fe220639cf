/**
 * The control endpoints answer only to a local Host or one named with --allowed-host (issue 25): a page
 * whose DNS name was rebound to 127.0.0.1 is same-origin to the mock, and only its Host gives it away. The
 * API itself answers to any name, and the in-process mock (MSW's path) has no Host to check.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMock, type ListenInfo, type Mock } from './index.js';
import { AUTH } from './test-support/document-check.js';
import { send } from './test-support/http.js';

let mock: Mock;
let info: ListenInfo;
beforeAll(async () => {
  mock = await createMock({ allowedHosts: ['mock.lan'] });
  info = await mock.listen({ port: 0 });
});
afterAll(() => mock.close());

const get = (path: string, host: string) =>
  send(info.url, { method: 'GET', path, headers: { ...AUTH, host } });

describe('Host on the control endpoints', () => {
  it.each([
    ['a rebound name', '/__mock/state', 'evil.test'],
    ['a rebound name with a port', '/__mock/state', 'evil.test:4010'],
    ['a look-alike of localhost', '/__mock/state', 'localhost.evil.test'],
    ['an escaped control path', '/%5F_mock/state', 'evil.test'],
    ['the inspector page', '/__mock/', 'evil.test'],
  ])('refuses %s with 403 host_not_allowed', async (_name, path, host) => {
    const answer = await get(path, host);
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.text)).toMatchObject({ code: 'host_not_allowed', status: 403 });
  });

  it.each(['localhost:4010', '127.0.0.1', '127.1.2.3:80', '[::1]:4010', 'mock.lan:4010', 'MOCK.LAN'])(
    'answers Host %s',
    async (host) => {
      expect((await get('/__mock/state', host)).status).toBe(200);
    },
  );

  it('serves the API to any Host', async () => {
    expect((await get('/v1/store/orders', 'evil.test')).status).toBe(200);
  });

  it('has no Host to check in-process, as under MSW', async () => {
    const answer = await mock.handle(new Request('http://api.test/__mock/state', { headers: AUTH }));
    expect(answer.status).toBe(200);
  });
});
