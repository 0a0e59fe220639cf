/**
 * The proxy's own pages answer only to a local Host or one named with --allowed-host (issue 25): a page
 * whose DNS name was rebound to 127.0.0.1 is same-origin to the proxy, and only its Host gives it away.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPort } from '../../test-support/servers/serve.js';
import { createProxy, type ProxyInfo, type ValidatingProxy } from './index.js';

let proxy: ValidatingProxy;
let info: ProxyInfo;
beforeAll(async () => {
  proxy = createProxy({ upstream: `http://127.0.0.1:${await closedPort()}/v1`, allowedHosts: ['proxy.lan'] });
  info = await proxy.listen({ port: 0 });
});
afterAll(() => proxy.close());

function get(path: string, host: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { port: info.port, host: '127.0.0.1', path, headers: { host }, agent: false },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => {
          text += chunk.toString();
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('Host on /__proxy/', () => {
  it.each([
    ['/__proxy/', 'evil.test:4020'],
    ['/__proxy/findings', 'evil.test'],
    ['/__proxy/live', 'localhost.evil.test'],
  ])('refuses %s for Host %s with 403 proxy_host_not_allowed', async (path, host) => {
    const answer = await get(path, host);
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.text)).toMatchObject({ code: 'proxy_host_not_allowed', status: 403 });
  });

  it.each(['localhost:4020', '127.0.0.1', '[::1]:4020', 'proxy.lan:4020'])(
    'answers Host %s',
    async (host) => {
      expect((await get('/__proxy/findings', host)).status).toBe(200);
    },
  );
});
