import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { type AddressInfo, createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Duplex, PassThrough } from 'node:stream';
import { createServer as createTlsServer } from 'node:tls';
import { afterAll, describe, expect, it } from 'vitest';
import { BROKEN_SERVERS } from '../../test-support/servers/broken-servers.js';
import { CORRECT_SERVERS } from '../../test-support/servers/correct-servers.js';
import { startTarget, TARGET_KEY } from '../../test-support/servers/reference-server.js';
import { ECHOES_KEY } from '../../test-support/servers/robustness-servers.js';
import { selfSignedCertificate } from '../../test-support/servers/self-signed.js';
import { closedPort } from '../../test-support/servers/serve.js';
import { CHECKS } from './checks/index.js';
import { runCommand } from './test-support/cli-harness.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'conformance-cli-'));
  dirs.push(dir);
  return dir;
}

function run(argv: string[], options: { env?: Record<string, string>; tty?: boolean } = {}) {
  return runCommand(argv, options.env ?? { PETSTORE_API_KEY: TARGET_KEY }, options.tty ?? false);
}

async function withTarget<T>(
  b: Parameters<typeof startTarget>[0],
  fn: (baseUrl: string) => Promise<T>,
): Promise<T> {
  const target = await startTarget(b);
  try {
    return await fn(target.baseUrl);
  } finally {
    await target.close();
  }
}

const correct = CORRECT_SERVERS[0]?.behaviour;
const brokenList = BROKEN_SERVERS.find((s) => s.name === 'list-id-outside-int64')?.behaviour;
if (!correct || !brokenList) throw new Error('targets missing');

describe('petstore conformance: a port fetch refuses', () => {
  it('is an unreachable target with its own fix, exit 2', async () => {
    // 6000 is on the Fetch standard's list of blocked ports: fetch refuses it without connecting.
    const { code, stdout, stderr } = await run(['--base-url', 'http://127.0.0.1:6000/v1']);
    expect(code).toBe(2);
    expect(stdout).toMatch(/^UNREACHABLE {2}cannot reach the target: /m);
    expect(stderr).toMatch(
      /^petstore conformance: cannot reach the target: .*blocked ports; serve the target on another port/,
    );
    expect(stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('petstore conformance: a setup mistake stops the run before anything is judged', () => {
  it.each([
    [
      'a key the server refuses',
      (baseUrl: string) => baseUrl,
      'petstore-not-the-target-key',
      /^petstore conformance: the key was refused by the server: GET \S+\/v1\/store\/orders with it answered 401; set PETSTORE_API_KEY/,
    ],
    [
      'a base URL without /v1',
      (baseUrl: string) => baseUrl.replace(/\/v1$/, ''),
      TARGET_KEY,
      /answered 404: is `\/v1` missing from the base URL\?; give the base address/,
    ],
    [
      'https:// to a plain http server',
      (baseUrl: string) => baseUrl.replace(/^http:/, 'https:'),
      TARGET_KEY,
      /TLS handshake .*is it plain http\?; use the scheme the target serves/,
    ],
  ] as const)('%s: exit 2 with one clear line', async (_label, aim, key, message) => {
    const { code, stdout, stderr } = await withTarget(correct, (baseUrl) =>
      run(['--base-url', aim(baseUrl)], { env: { PETSTORE_API_KEY: key } }),
    );
    expect(code).toBe(2);
    expect(stdout).toMatch(/^SETUP ERROR {2}/m);
    expect(stderr).toMatch(message);
    expect(stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('petstore conformance: http:// to a server that speaks TLS', () => {
  // A correct target, but served over https with a certificate made for the test.
  async function overTls<T>(fn: (httpsUrl: string) => Promise<T>): Promise<T> {
    const target = await startTarget(correct as NonNullable<typeof correct>, undefined, {
      tls: selfSignedCertificate(),
    });
    try {
      return await fn(target.baseUrl);
    } finally {
      await target.close();
    }
  }

  it.each([
    [
      'http:// (the plain request gets no HTTP answer)',
      (httpsUrl: string) => httpsUrl.replace(/^https:/, 'http:'),
      /^petstore conformance: GET http:\/\/127\.0\.0\.1:\d+\/v1\/store\/orders: no HTTP answer \(.+\), but the target completes a TLS handshake at this address: it speaks https, not plain http; use https:\/\/ in --base-url\.\n$/,
    ],
    [
      'https:// (its certificate is refused)',
      (httpsUrl: string) => httpsUrl,
      /^petstore conformance: GET https:\/\/\S+: the target's TLS certificate was not accepted \(DEPTH_ZERO_SELF_SIGNED_CERT\); give Node the CA with NODE_EXTRA_CA_CERTS; use the scheme/,
    ],
  ])('is a setup mistake with %s: exit 2, one line, nothing judged', async (_label, aim, message) => {
    const { code, stdout, stderr } = await overTls((httpsUrl) => run(['--base-url', aim(httpsUrl)]));
    expect(stderr).toMatch(message);
    expect(code).toBe(2);
    expect(stdout).toMatch(/^SETUP ERROR {2}/m);
    expect(stderr.trim().split('\n')).toHaveLength(1);
  });

  it('is a setup mistake when the TLS port answers a plain request with 400, as nginx does', async () => {
    const tls = createTlsServer(selfSignedCertificate(), (socket) => socket.end());
    const page = '<h1>The plain HTTP request was sent to HTTPS port</h1>';
    // One port for both: a TLS record (0x16, a handshake) goes to the TLS server, anything else gets a 400.
    const server = createNetServer((socket) => {
      socket.on('error', () => undefined);
      socket.once('data', (first) => {
        if (first[0] === 0x16) {
          // The TLS server must see the bytes already read: it gets a stream that starts with them (a
          // socket with them unshifted would be read from its handle, past them).
          const inbound = new PassThrough();
          inbound.write(first);
          socket.pipe(inbound);
          tls.emit('connection', Duplex.from({ readable: inbound, writable: socket }));
        } else {
          socket.end(
            `HTTP/1.1 400 Bad Request\r\ncontent-type: text/html\r\ncontent-length: ${page.length}\r\nconnection: close\r\n\r\n${page}`,
          );
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    const { port } = server.address() as AddressInfo;
    try {
      const { code, stdout, stderr } = await run(['--base-url', `http://127.0.0.1:${port}/v1`]);
      expect(stderr).toMatch(
        /: no HTTP answer \(it answered 400\), but the target completes a TLS handshake/,
      );
      expect(code).toBe(2);
      expect(stdout).toMatch(/^SETUP ERROR {2}.*it speaks https, not plain http/m);
    } finally {
      server.close();
    }
  });
});

describe('petstore conformance: a short key', () => {
  it('warns, keeps the JSON report well-formed and still redacts the key from the text', async () => {
    const dir = tempDir();
    // A target that takes the one-character key and lists an id outside int64, so a check fails.
    const takesX = {
      ...brokenList,
      authorized: (_b: unknown, authorization: string | undefined) => authorization === 'Bearer x',
    };
    const { code, stdout, stderr } = await withTarget(takesX, (baseUrl) =>
      run(['--base-url', baseUrl, '--reporter', 'pretty', '--reporter', 'json', '--output-dir', dir], {
        env: { PETSTORE_API_KEY: 'x' },
      }),
    );
    expect(code).toBe(1);
    expect(stderr).toMatch(/warning: the API key is shorter than 12 characters/);
    expect(stdout).not.toMatch(/x/);
    const json = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8'));
    expect(json.coverage[0]).toHaveProperty('exercised');
    expect(json.checks.map((c: { outcome: string }) => c.outcome)).toContain('FAIL');
  });
});

describe('petstore conformance: exit codes', () => {
  it('exits 2 on an unreachable target: one line naming what was tried and what to check', async () => {
    const port = await closedPort();
    const { code, stderr, stdout } = await run(['--base-url', `http://127.0.0.1:${port}/v1`]);
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toContain(`GET http://127.0.0.1:${port}/v1/store/orders`);
    expect(stderr).toMatch(/ECONNREFUSED.*check that the server is running/);
    expect(stdout).toMatch(/^UNREACHABLE {2}cannot reach the target: .*ECONNREFUSED/m);
  });

  it('takes a time as the fuzz budget (--fuzz 10s), not only a count', async () => {
    const port = await closedPort();
    const { code, stderr, stdout } = await run([
      '--base-url',
      `http://127.0.0.1:${port}/v1`,
      '--fuzz',
      '10s',
    ]);
    expect(stderr).not.toMatch(/--fuzz/);
    expect(stdout).toMatch(/^Fuzz phase: generated requests for 10000 ms, seed /m);
    expect(code).toBe(2);
  });

  it('exits 0 on a correct target (warnings and skips allowed)', async () => {
    const { code, stdout } = await withTarget(correct, (baseUrl) => run(['--base-url', baseUrl]));
    expect(code).toBe(0);
    expect(stdout).toMatch(/^PASS {2}list\.orders /m);
    expect(stdout).toMatch(/^SKIP {2}cancel\.pending-order .*--destructive/m);
    expect(stdout).toMatch(/^Spec coverage: /m);
    expect(stdout).toMatch(/^Operations \(D13\): listOrders GET \/store\/orders \[no stability marker\]/m);
    expect(stdout).toMatch(/^PASSED: /m);
  });

  it('exits 1 when a check fails, with the details and a curl line', async () => {
    const { code, stdout } = await withTarget(brokenList, (baseUrl) => run(['--base-url', baseUrl]));
    expect(code).toBe(1);
    expect(stdout).toMatch(/^FAIL {2}list\.orders /m);
    expect(stdout).toMatch(/must be an integer within int64/);
    expect(stdout).toMatch(
      /rule: {5}\/0\/id must be an integer within int64 .*\[\S*Order\/properties\/id\/format\]/,
    );
    expect(stdout).toMatch(
      /repeat: {3}curl -i -X GET -H 'accept: application\/json' -H "authorization: Bearer \$PETSTORE_API_KEY"/,
    );
    expect(stdout).toMatch(/^FAILED: /m);
  });
});

describe('petstore conformance: reports', () => {
  it('colours only on a TTY without NO_COLOR', async () => {
    await withTarget(correct, async (baseUrl) => {
      const argv = ['--base-url', baseUrl, '--only', 'list'];
      expect((await run(argv, { tty: true })).stdout).toContain('\u001b[32mPASS');
      expect((await run(argv, { tty: false })).stdout).not.toContain('\u001b[');
      const noColor = await run(argv, { tty: true, env: { PETSTORE_API_KEY: TARGET_KEY, NO_COLOR: '1' } });
      expect(noColor.stdout).not.toContain('\u001b[');
    });
  });

  // A recursive mkdir never returns under /proc on Node 20: this test would hang, not fail, before the fix.
  it.skipIf(process.platform !== 'linux')(
    'exits 2 at once with one line for an --output-dir under /proc',
    async () => {
      const { code, stderr } = await withTarget(correct, (baseUrl) =>
        run([
          '--base-url',
          baseUrl,
          '--only',
          'list',
          '--reporter',
          'json',
          '--output-dir',
          '/proc/petstore-conformance/reports',
        ]),
      );
      expect(code).toBe(2);
      expect(stderr).toMatch(
        /^petstore conformance: cannot write the reports under \/proc\/petstore-conformance\/reports: ENOENT.*check --output-dir\.\n$/,
      );
    },
  );

  it('writes json and junit under --output-dir: one testcase per check, warnings visible', async () => {
    const dir = tempDir();
    const framework = CORRECT_SERVERS.find((s) => s.name === 'framework-defaults')?.behaviour ?? correct;
    const { code, stdout } = await withTarget(framework, (baseUrl) =>
      run([
        '--base-url',
        baseUrl,
        '--reporter',
        'json',
        '--reporter',
        'junit',
        '--output-dir',
        dir,
        '--shipped-order',
        '2',
      ]),
    );
    expect(code).toBe(0);
    expect(stdout).toMatch(/json report: .*conformance\.json/);
    const json = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8'));
    expect(json.schemaVersion).toBe(1);
    expect(Object.keys(json).sort()).toEqual(
      [
        'baseUrl',
        'checks',
        'contractVersion',
        'coverage',
        'destructive',
        'durationMs',
        'environment',
        'failOn',
        'outcome',
        'schemaVersion',
        'startedAt',
        'summary',
        'tool',
        'unreachable',
        'retries',
        'retriesNotListed',
        'retryPolicy',
        'fuzz',
      ].sort(),
    );
    expect(json.checks).toHaveLength(CHECKS.length);
    for (const check of json.checks) {
      expect(Object.keys(check).sort()).toEqual(
        [
          'citation',
          'consumedOrders',
          'durationMs',
          'findings',
          'id',
          'level',
          'message',
          'notes',
          'operationId',
          'outcome',
          'skip',
          'title',
        ].sort(),
      );
    }
    const warned = json.checks.find((c: { outcome: string }) => c.outcome === 'WARN');
    expect(Object.keys(warned.findings[0]).sort()).toEqual([
      'actual',
      'expected',
      'message',
      'request',
      'schemaViolations',
    ]);
    expect(Object.keys(warned.findings[0].actual).sort()).toEqual([
      'bodyExcerpt',
      'contentType',
      'status',
      'transportError',
    ]);
    expect(Object.keys(json.coverage[0]).sort()).toEqual(
      ['deprecated', 'documented', 'exercised', 'method', 'operationId', 'path', 'stability'].sort(),
    );
    const junit = readFileSync(join(dir, 'conformance-junit.xml'), 'utf8');
    expect(junit.match(/<testcase /g)).toHaveLength(CHECKS.length);
    expect(junit).toMatch(/<property name="outcome" value="WARN"\/>/);
    expect(junit).toMatch(/<system-out>WARNING \(§7, D3\)/);
    expect(junit).toMatch(/<skipped message="it cancels pending orders/);
    expect(junit.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
  });
});

describe('the key never appears in any output', () => {
  it.each([
    ['from PETSTORE_API_KEY', false],
    ['from --api-key', true],
  ] as const)('with the key %s, against a target that echoes it back', async (_label, viaFlag) => {
    const dir = tempDir();
    const env: Record<string, string> = viaFlag ? {} : { PETSTORE_API_KEY: TARGET_KEY };
    const { code, stdout, stderr } = await withTarget(ECHOES_KEY, (baseUrl) =>
      run(
        [
          '--base-url',
          baseUrl,
          ...(viaFlag ? ['--api-key', TARGET_KEY] : []),
          '--shipped-order',
          '2',
          '--reporter',
          'pretty',
          '--reporter',
          'json',
          '--reporter',
          'junit',
          '--output-dir',
          dir,
        ],
        { env },
      ),
    );
    expect(code).toBe(1);
    // The target did echo it: the report shows where, redacted.
    expect(stdout).toContain('<redacted>');
    const outputs = [stdout, stderr, ...readdirSync(dir).map((f) => readFileSync(join(dir, f), 'utf8'))];
    for (const output of outputs) expect(output).not.toContain(TARGET_KEY);
  });
});
