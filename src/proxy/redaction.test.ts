import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type ProxyCommandIo, proxyCommand } from './cli.js';

const KEY = 'proxy/secret+key=0123456789abcdef';
const OTHER_KEY = 'another-key-echoed-later-42';
/** A key a page sends only in the query (an EventSource cannot set Authorization). */
const QUERY_KEY = 'c0ffee00-1234-4abc-9def-0123456789ab';

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
  const echo = url.searchParams.get('echo');
  const key = echo === 'other' ? OTHER_KEY : echo === 'query' ? QUERY_KEY.toUpperCase() : sent;
  const json = { 'content-type': 'application/json' };
  req.resume();
  if (sent.startsWith('refused-')) {
    res.writeHead(401, json);
    res.end(JSON.stringify({ code: 'unauthorized', message: 'no', status: 401 }));
  } else if (url.pathname === '/v1/pets/10') {
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

type Call = { path: string; key: string | null };

/** Runs the proxy with every reporter in front of the echoing upstream, sends `calls`, and returns every output. */
async function proxyOutputs(calls: readonly Call[]) {
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

  return {
    code,
    outputs: {
      stderr,
      stdout,
      findings,
      json: readFileSync(join(outputDir, 'proxy.json'), 'utf8'),
      junit: readFileSync(join(outputDir, 'proxy-junit.xml'), 'utf8'),
      html: readFileSync(join(outputDir, 'proxy.html'), 'utf8'),
    } as Record<string, string>,
  };
}

describe('no key reaches any output of the proxy', () => {
  it('redacts keys in the query, the path and echoed headers from stderr, /__proxy/findings and every report', async () => {
    const q = encodeURIComponent(KEY);
    const calls: Call[] = [
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
    const { code, outputs } = await proxyOutputs(calls);
    const { stderr = '', findings = '' } = outputs;
    expect(code).toBe(1);
    // The findings are there, only without the keys.
    expect(stderr).toContain('/store/orders?api_key=<redacted>');
    expect(JSON.parse(findings).findings.length).toBeGreaterThanOrEqual(calls.length);
    for (const [name, text] of Object.entries(outputs)) {
      for (const form of [...forms(KEY), ...forms(OTHER_KEY)]) {
        expect(text.includes(form), `${name} holds ${form}`).toBe(false);
      }
    }
  });

  it('redacts keys sent only in the query, in any case, and keeps an accepted key past refused ones', async () => {
    // 40 keys the upstream refuses, each sent by anyone, between the accepted OTHER_KEY and its echo.
    const refused = Array.from(
      { length: 40 },
      (_, i): Call => ({ path: '/store/orders', key: `refused-${i}-0123456789` }),
    );
    const calls: Call[] = [
      { path: `/store/orders?access_token=${QUERY_KEY}`, key: null },
      { path: `/store/orders?x=1&API_KEY=${QUERY_KEY}&token=sh0rtv4l`, key: null },
      { path: '/store/orders', key: OTHER_KEY },
      ...refused,
      { path: '/store/orders?type=1&echo=other', key: null },
      { path: '/store/orders?type=1&echo=query', key: null },
    ];
    const { outputs } = await proxyOutputs(calls);
    expect(outputs.stderr).toContain('/store/orders?access_token=<redacted>');
    expect(outputs.stderr).toContain('&token=<redacted>');
    for (const [name, text] of Object.entries(outputs)) {
      for (const form of [
        ...forms(QUERY_KEY),
        ...forms(QUERY_KEY.toUpperCase()),
        ...forms(OTHER_KEY),
        'short',
      ]) {
        expect(text.includes(form), `${name} holds ${form}`).toBe(false);
      }
    }
  });
});
