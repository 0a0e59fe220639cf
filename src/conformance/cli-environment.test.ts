/**
 * The gateway is not the server (D22), and every exit writes its reports: a correct server behind a rate
 * limiter passes, a load balancer with nothing behind it or a firewall's page stops the run as "not ready"
 * (exit 2), and each kind of exit 2 writes the JSON, JUnit and HTML reports that were asked for.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseJunit } from 'test-results-parser';
import { afterAll, describe, expect, it } from 'vitest';
import { CORRECT_SERVERS } from '../../test-support/servers/correct-servers.js';
import {
  behindRateLimiter,
  FIREWALL_PAGE,
  gatewayAnswering,
  NO_UPSTREAM,
} from '../../test-support/servers/gateways.js';
import {
  createStore,
  PENDING_IDS,
  SHIPPED_IDS,
  startTarget,
  TARGET_KEY,
  targetHandler,
} from '../../test-support/servers/reference-server.js';
import { closedPort, type RunningTarget, serve } from '../../test-support/servers/serve.js';
import { runConformance } from './runner.js';
import { runCommand } from './test-support/cli-harness.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const correct = CORRECT_SERVERS[0]?.behaviour;
if (!correct) throw new Error('no correct server');

const EVERY_REPORTER = ['pretty', 'json', 'junit', 'html'].flatMap((r) => ['--reporter', r]);

/** Runs the CLI with every reporter into a fresh directory; returns the streams and the files written. */
async function runWithReports(argv: string[], key = TARGET_KEY) {
  const dir = mkdtempSync(join(tmpdir(), 'conformance-env-'));
  dirs.push(dir);
  const run = await runCommand([...argv, ...EVERY_REPORTER, '--output-dir', dir], { PETSTORE_API_KEY: key });
  const files = Object.fromEntries(readdirSync(dir).map((f) => [f, readFileSync(join(dir, f), 'utf8')]));
  return { ...run, dir, files };
}

async function closing<T extends RunningTarget, R>(target: T, fn: (target: T) => Promise<R>): Promise<R> {
  try {
    return await fn(target);
  } finally {
    await target.close();
  }
}

const ids = [
  ...PENDING_IDS.flatMap((id) => ['--pending-order', id]),
  ...SHIPPED_IDS.flatMap((id) => ['--shipped-order', id]),
];

describe('a correct server behind a rate limiter that answers every 4th request 429', () => {
  it.each([
    ['read-only', ['--shipped-order', '2']],
    ['destructive', ['--destructive', ...ids]],
  ] as const)('passes %s (exit 0), and the reports say what was retried', async (_mode, extra) => {
    const store = createStore();
    const { code, stdout, stderr, files, throttled } = await closing(
      await behindRateLimiter(correct, { every: 4, retryAfter: '0' }, store),
      async (target) => ({
        ...(await runWithReports(['--base-url', target.baseUrl, ...extra])),
        throttled: target.throttled(),
      }),
    );
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(throttled).toBeGreaterThan(5);
    expect(stdout.split('\n')[0]).toMatch(
      /^Gateway answers \(D22\): 429 and 503 are retried honouring Retry-After, waiting at most 30 s in all \(--retry-budget\) while no answer gets through/,
    );
    const json = JSON.parse(files['conformance.json'] ?? '');
    expect(json.outcome).toBe('pass');
    // Every 429 the limiter sent is in the report; one request may have been throttled twice (five
    // simultaneous cancels can take two of its turns), so the 429s are counted, not the entries.
    const retried = json.retries as Array<{ statuses: number[] }>;
    expect(retried.flatMap((r) => r.statuses).filter((s) => s === 429)).toHaveLength(throttled);
    expect(json.retries[0]).toEqual({
      method: expect.any(String),
      url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/v1\//),
      attempts: 2,
      statuses: [429, expect.any(Number)],
    });
    expect(json.retryPolicy).toMatchObject({ budgetMs: 30_000, maxRetriesPerRequest: 5, rateLimit: null });
    // As many requests as the report lists (one request may have taken two of the limiter's 429s).
    expect(stdout).toMatch(
      new RegExp(`^Retried after 429 or 503 \\(D22\\): ${retried.length} requests: `, 'm'),
    );
    expect(files['conformance.html']).toMatch(/<p id="retries">Retried after 429 or 503/);
    expect(files['conformance-junit.xml']).toMatch(
      /<property name="retries" value="Retried after 429 or 503/,
    );
  });

  it('waits what Retry-After: 1 asks and still passes, at its own pace under --rate-limit', async () => {
    const started = Date.now();
    const { code, stdout, files } = await closing(
      await behindRateLimiter(correct, { every: 4, retryAfter: '1' }),
      (target) =>
        runWithReports(['--base-url', target.baseUrl, '--only', 'list.orders', '--rate-limit', '20']),
    );
    expect(code).toBe(0);
    expect(stdout).toMatch(/the suite sends at most 20 requests per second \(--rate-limit\)/);
    const json = JSON.parse(files['conformance.json'] ?? '');
    expect(json.retries).toEqual([expect.objectContaining({ attempts: 2, statuses: [429, 200] })]);
    expect(json.retryPolicy.waitedMs).toBe(1000);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
  });
});

/** Each kind of exit 2 after the first request, with the outcome and the line it gives. */
const STOPS: Array<
  [string, () => Promise<{ baseUrl: string; close(): Promise<void> }>, string, string, RegExp]
> = [
  [
    'a load balancer that answers 503 to everything',
    () => gatewayAnswering(NO_UPSTREAM),
    TARGET_KEY,
    'not-ready',
    /^environment not ready: GET \S+\/v1\/store\/orders was answered 503, 503, 503, 503, 503, 503: it was still answered 503 after 5 retries(;|$)/,
  ],
  [
    "a firewall's 403 page on the key",
    () => gatewayAnswering(FIREWALL_PAGE),
    TARGET_KEY,
    'not-ready',
    /^environment not ready: GET \S+\/v1\/store\/orders answered 403 \(text\/html\) with a body that is not the API's Error/,
  ],
  [
    'a closed port',
    async () => ({ baseUrl: `http://127.0.0.1:${await closedPort()}/v1`, close: async () => undefined }),
    TARGET_KEY,
    'unreachable',
    /^cannot reach the target: GET \S+: could not connect \(ECONNREFUSED\)/,
  ],
  [
    'a key the server refuses',
    () => startTarget(correct),
    'petstore-not-the-target-key',
    'setup-error',
    /^the key was refused by the server/,
  ],
  [
    'a base URL without /v1',
    async () => {
      const target = await startTarget(correct);
      return { baseUrl: target.baseUrl.replace(/\/v1$/, ''), close: target.close };
    },
    TARGET_KEY,
    'setup-error',
    /answered 404: is `\/v1` missing from the base URL\?/,
  ],
  [
    'https:// to a plain http server',
    async () => {
      const target = await startTarget(correct);
      return { baseUrl: target.baseUrl.replace(/^http:/, 'https:'), close: target.close };
    },
    TARGET_KEY,
    'setup-error',
    /TLS handshake .*is it plain http\?/,
  ],
];

describe('every exit 2 after the first request writes the reports asked for', () => {
  it.each(STOPS)(
    '%s: exit 2, one line, and JSON, JUnit, HTML and pretty say why',
    async (_label, start, key, outcome, line) => {
      const { code, stdout, stderr, files, dir } = await closing(await start(), (target) =>
        runWithReports(['--base-url', target.baseUrl], key),
      );
      expect(code).toBe(2);
      expect(stderr.trim().split('\n')).toHaveLength(1);
      expect(stderr.replace(/^petstore conformance: /, '')).toMatch(line);

      const json = JSON.parse(files['conformance.json'] ?? '');
      expect(json.outcome).toBe(outcome);
      expect(json.unreachable.message).toMatch(line);
      expect(json.checks).toEqual([]);

      const junit = parseJunit({ type: 'junit', files: [join(dir, 'conformance-junit.xml')] });
      expect(junit.status).toBe('FAIL');
      const cases = junit.suites.flatMap((s) => s.cases);
      expect(cases).toHaveLength(1);
      expect(cases[0]?.status).toBe('FAIL');
      expect(cases[0]?.failure).toMatch(line);
      expect(files['conformance-junit.xml']).toMatch(/errors="1"/);
      expect(files['conformance-junit.xml']).toMatch(new RegExp(`<error message="[^"]+" type="${outcome}">`));

      const label = { unreachable: 'UNREACHABLE', 'not-ready': 'NOT READY', 'setup-error': 'SETUP ERROR' }[
        outcome
      ];
      expect(files['conformance.html']).toMatch(
        new RegExp(`<p id="verdict" class="verdict ${outcome}">${label}: `),
      );
      expect(stdout).toMatch(new RegExp(`^${label} {2}`, 'm'));
      expect(`${stdout}${stderr}${Object.values(files).join('')}`).not.toContain(TARGET_KEY);
    },
  );

  it('a usage error prints one line and writes no report: no report directory is known to be right', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'conformance-env-')), 'reports');
    dirs.push(dir);
    const { code, stdout, stderr } = await runCommand(
      ['--base-url', 'http://h/v1', '--reporter', 'json', '--output-dir', dir, '--retry-budget', 'soon'],
      { PETSTORE_API_KEY: TARGET_KEY },
    );
    expect(code).toBe(2);
    expect(stderr).toMatch(/--retry-budget "soon" is not a duration; give e\.g\. 30s, 500ms, 2m or 0/);
    expect(stdout).toBe('');
    expect(existsSync(dir)).toBe(false);
  });
});

describe('a load balancer that loses its servers in the middle of a run (a deploy)', () => {
  it('stops the run as not ready, judges nothing, and sends nothing more', async () => {
    const handler = targetHandler(correct);
    let seen = 0;
    const target = await serve((req, res) => {
      seen += 1;
      if (seen <= 10) return handler(req, res);
      res.writeHead(503, { 'content-type': 'text/html', 'retry-after': '0' });
      res.end('<h1>503</h1>');
    });
    const result = await closing(target, () =>
      runConformance({ baseUrl: target.baseUrl, apiKey: TARGET_KEY, shippedOrders: SHIPPED_IDS }),
    );
    expect(result.outcome).toBe('not-ready');
    expect(result.unreachable?.message).toMatch(
      /^environment not ready: \S+ \S+ was answered 503, 503, 503, 503, 503, 503/,
    );
    expect(result.checks).toEqual([]);
    expect(result.summary.failed).toBe(0);
    expect(result.retries?.at(-1)?.statuses).toEqual([503, 503, 503, 503, 503, 503]);
    // The ten it passed on, then one request tried six times: nothing after the gateway gave up.
    expect(seen).toBe(16);
  });
});
