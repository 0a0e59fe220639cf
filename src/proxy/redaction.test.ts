import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type ProxyCommandIo, proxyCommand } from './cli.js';

const KEY = 'proxy/secret+key=0123456789abcdef';
const OTHER_KEY = 'another-key-echoed-later-42';

/** The forms a leak could take: as sent, URL-encoded (either case), base64 (both alphabets), a fragment. */
function forms(key: string): string[] {
  const base64 = Buffer.from(key).toString('base64');
  return [
    key,
    encodeURIComponent(key),
    encodeURIComponent(key).toLowerCase(),
    base64,
    Buffer.from(key).toString('base64url'),
    key.slice(4, 18),
  ];
}

/**
 * An upstream that puts the key it was sent (or, with `?echo=other`, a key another request sent) where
 * a finding will show it: in Location, Content-Type, Deprecation, and its body.
 */
function echoingUpstream(req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://upstream.invalid');
  const sent = (req.headers.authorization ?? '').replace(/^Bearer /, '');
  const key = url.searchParams.get('echo') === 'other' ? OTHER_KEY : sent;
  const json = { 'content-type': 'application/json' };
  req.resume();
  if (url.pathname === '/v1/pets/10') {
    res.writeHead(200, { ...json, deprecation: key, sunset: key });
    res.end('{"id":10,"name":"Rex"}');
  } else if (url.searchParams.has('redirect')) {
    const encoded =
      url.searchParams.get('redirect') === 'base64'
        ? Buffer.from(key).toString('base64')
        : encodeURIComponent(key);
    res.writeHead(302, { location: `http://elsewhere.invalid/login?k=${encoded}` });
    res.end();
  } else if (url.searchParams.has('type')) {
    res.writeHead(200, { 'content-type': `text/plain; k=${key}` });
    res.end(`[] ${key}`);
  } else {
    // Every other request (the key in the query or the path) is answered 500: a finding about it.
    res.writeHead(500, json);
    res.end(JSON.stringify({ code: 'boom', message: `no ${key}`, status: 500 }));
  }
}

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('no key reaches any output of the proxy', () => {
  it('redacts keys in the query, the path and echoed headers from stderr, /__proxy/findings and every report', async () => {
    const upstream = createServer(echoingUpstream);
    await new Promise<void>((done) => upstream.listen(0, '127.0.0.1', () => done()));
    const outputDir = mkdtempSync(join(tmpdir(), 'petstore-proxy-redaction-'));
    dirs.push(outputDir);
    let stderr = '';
    let stdout = '';
    let stop: () => void = () => undefined;
    let running: Promise<number> = Promise.resolve(-1);
    const listening = new Promise<{ url: string; baseUrl: string }>((resolve) => {
      const io: ProxyCommandIo = {
        stdout: { write: (t: string) => (stdout += t) },
        stderr: { write: (t: string) => (stderr += t) },
        env: {},
        stop: new Promise<void>((done) => {
          stop = done;
        }),
        onListening: resolve,
      };
      const { port } = upstream.address() as AddressInfo;
      running = proxyCommand(
        [
          '--upstream',
          `http://127.0.0.1:${port}/v1`,
          '--port',
          '0',
          '--output-dir',
          outputDir,
          '--reporter',
          'json',
          '--reporter',
          'junit',
          '--reporter',
          'html',
          '--reporter',
          'pretty',
        ],
        io,
      );
    });
    const { url, baseUrl } = await listening;
    const q = encodeURIComponent(KEY);
    const calls: Array<{ path: string; key: string | null }> = [
      { path: `/store/orders?api_key=${q}`, key: KEY },
      { path: `/store/orders?api_key=${q}`, key: null },
      { path: `/store/orders/${q}`, key: KEY },
      { path: '/store/orders?redirect=url', key: KEY },
      { path: '/store/orders?redirect=base64', key: KEY },
      { path: '/store/orders?type=1', key: KEY },
      { path: '/pets/10', key: KEY },
      // A keyless request whose answer echoes a key another request used earlier.
      { path: '/store/orders', key: OTHER_KEY },
      { path: '/store/orders?type=1&echo=other', key: null },
    ];
    for (const call of calls) {
      const response = await fetch(`${baseUrl}${call.path}`, {
        headers: call.key ? { authorization: `Bearer ${call.key}` } : {},
        redirect: 'manual',
      });
      await response.arrayBuffer();
    }
    const findings = await (await fetch(`${url}/__proxy/findings`)).text();
    stop();
    const code = await running;
    await new Promise((done) => upstream.close(done));

    expect(code).toBe(1);
    const outputs: Record<string, string> = {
      stderr,
      stdout,
      findings,
      json: readFileSync(join(outputDir, 'proxy.json'), 'utf8'),
      junit: readFileSync(join(outputDir, 'proxy-junit.xml'), 'utf8'),
      html: readFileSync(join(outputDir, 'proxy.html'), 'utf8'),
    };
    // The findings are there, only without the keys.
    expect(stderr).toContain('/store/orders?api_key=<redacted>');
    expect(JSON.parse(findings).findings.length).toBeGreaterThanOrEqual(calls.length);
    for (const [name, text] of Object.entries(outputs)) {
      for (const form of [...forms(KEY), ...forms(OTHER_KEY)]) {
        expect(text.includes(form), `${name} holds ${form}`).toBe(false);
      }
    }
  });
});
