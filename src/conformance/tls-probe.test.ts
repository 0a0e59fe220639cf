import { createServer as createHttpsServer } from 'node:https';
import { createServer, type Server } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { selfSignedCertificate } from '../../test-support/servers/self-signed.js';
import { closedPort, serve } from '../../test-support/servers/serve.js';
import { speaksTls } from './http-client.js';

const servers: Array<{ close(): unknown }> = [];
afterAll(() => {
  for (const server of servers) server.close();
});

async function listening(server: Server): Promise<number> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

const portOf = (baseUrl: string) => Number(new URL(baseUrl).port);

describe('telling a server that speaks TLS apart', () => {
  it.each([
    [
      'an https server with a self-signed certificate',
      true,
      async () => listening(createHttpsServer(selfSignedCertificate(), (_q, r) => r.end())),
    ],
    [
      'a plain http server (it answers the ClientHello with a 400)',
      false,
      async () => {
        const target = await serve((_q, r) => {
          r.end();
        });
        servers.push(target);
        return portOf(target.baseUrl);
      },
    ],
    [
      'a server that sends a TLS alert record and closes, without a handshake',
      false,
      async () =>
        listening(
          createServer((socket) => {
            socket.on('error', () => undefined);
            socket.end(Buffer.from([0x15, 0x03, 0x03, 0x00, 0x02, 0x02, 0x46]));
          }),
        ),
    ],
    [
      'a server that resets every connection',
      false,
      async () => listening(createServer((socket) => socket.resetAndDestroy())),
    ],
    [
      'a server that accepts and never answers (until the time limit)',
      false,
      async () => listening(createServer((socket) => socket.on('error', () => undefined))),
    ],
    ['a closed port', false, () => closedPort()],
  ] as const)('%s: %s', async (_label, answer, start) => {
    expect(await speaksTls('127.0.0.1', await start(), 300)).toBe(answer);
  });
});
