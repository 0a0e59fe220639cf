/**
 * `--record` (issue 24): the proxy in front of our own mock records what its lists showed, and a second
 * mock started from the file answers the same list, byte for byte.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultContract } from '../contract/index.js';
import { banner } from '../mock/cli.js';
import { loadFixtureFile } from '../mock/fixture-files.js';
import { createMock, type Mock } from '../mock/index.js';
import { createHandlers } from '../msw/index.js';
import { proxyCommand } from './cli.js';
import { FindingLog } from './findings.js';
import { createProxy } from './index.js';
import { Recorder } from './record.js';
import { TrafficJudge } from './traffic-judge.js';
import { parseUpstream } from './upstream.js';

const KEY = 'petstore-dev-key';
const auth = { authorization: `Bearer ${KEY}` };
const cleanup: Array<() => unknown> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

function tempFile(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-record-'));
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  return join(dir, name);
}

async function started(fixtures?: string): Promise<{ mock: Mock; baseUrl: string; url: string }> {
  const mock = await createMock(fixtures === undefined ? {} : { fixtures });
  const { baseUrl, url } = await mock.listen({ port: 0 });
  cleanup.push(() => mock.close());
  return { mock, baseUrl, url };
}

const list = async (baseUrl: string) => (await fetch(`${baseUrl}/store/orders`, { headers: auth })).text();

describe('petstore proxy --record, replayed by petstore mock --fixtures', () => {
  it('records lists, cancels and refusals, and a mock started from the file answers the same list', async () => {
    const first = await started();
    const file = tempFile('recorded.yaml');
    const proxy = createProxy({ upstream: first.baseUrl, record: { file } });
    const { baseUrl } = await proxy.listen({ port: 0 });
    const cancel = async (id: string) =>
      (await fetch(`${baseUrl}/store/orders/${id}`, { method: 'DELETE', headers: auth })).status;
    await list(baseUrl);
    expect(await cancel('1')).toBe(204); // then gone from the next list
    expect(await cancel('2')).toBe(409);
    await list(baseUrl);
    await list(baseUrl); // the same orders listed again are written once
    expect(await cancel('9007199254740993')).toBe(204); // no list after it: the 204 says cancelled
    await proxy.close();

    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain(KEY);
    expect(text.match(/"id":"?9007199254740993"?/g)).toHaveLength(1);
    expect(text).toContain('"id":"9223372036854775807"');
    const recorded = loadFixtureFile(file);
    if (!recorded.ok) throw recorded.error;
    const states = Object.fromEntries(
      [...recorded.value.orders.orders.values()].map((o) => [String(o.id), o.state]),
    );
    expect(states).toMatchObject({ '1': 'cancelled', '2': 'shipped', '3': 'pending' });
    expect(states['9007199254740993']).toBe('cancelled');
    expect(recorded.value.description).toMatch(
      new RegExp(`^recorded by petstore proxy from ${first.baseUrl} at \\d{4}-`),
    );

    const second = await started(file);
    expect(await list(second.baseUrl)).toBe(await list(first.baseUrl));
    // The mock's own pages say where its fixtures came from.
    const state = await (await fetch(`${second.url}/__mock/state`, { headers: auth })).json();
    expect(state).toMatchObject({ fixtures: file, fixturesDescription: recorded.value.description });
    expect(banner({ baseUrl: second.baseUrl, url: second.url, port: 0 }, second.mock, 'x', file)).toContain(
      `fixtures: ${file} (13 orders, 0 pets), "recorded by petstore proxy from`,
    );
    // createHandlers takes the file as any YAML parser reads it: the big ids are decimal text.
    const handlers = createHandlers({ fixtures: load(text) as never, baseUrl: 'http://api.test/v1' });
    expect((await handlers.orders()).map((o) => o.id)).toContain('9007199254740993');
  });

  it.each([
    {
      name: "an order that left the list its key read last is cancelled; another key's list does not count",
      given: [
        ['GET', '/store/orders', 200, '[{"id":1,"complete":false},{"id":2,"complete":false}]', 'key #1'],
        ['GET', '/store/orders', 200, '[{"id":2,"complete":false}]', 'key #1'],
        ['GET', '/store/orders', 200, '[]', 'key #2'],
      ],
      want: { '1': 'cancelled', '2': 'pending' },
    },
    {
      name: 'a 409 makes a listed order shipped, and a later list showing it pending wins',
      given: [
        ['GET', '/store/orders?limit=5', 200, '[{"id":1,"complete":false},{"id":2,"complete":false}]', 'k'],
        ['DELETE', '/store/orders/1', 409, null, 'k'],
        ['DELETE', '/store/orders/2', 409, null, 'k'],
        ['GET', '/store/orders', 200, '[{"id":2,"complete":false},{"id":1,"complete":true}]', 'k'],
      ],
      want: { '1': 'shipped', '2': 'pending' },
    },
    {
      name: 'a 409 after a 204 is a repeat refused (D2): the order stays cancelled',
      given: [
        ['GET', '/store/orders', 200, '[{"id":3,"complete":false}]', 'k'],
        ['DELETE', '/store/orders/3', 204, null, 'k'],
        ['DELETE', '/store/orders/3', 409, null, 'k'],
      ],
      want: { '3': 'cancelled' },
    },
    {
      name: 'cancels of orders never listed, failed lists and invalid orders are not recorded',
      given: [
        ['DELETE', '/store/orders/5', 204, null, 'k'],
        ['GET', '/store/orders', 503, '[{"id":6}]', 'k'],
        ['GET', '/store/orders', 200, '[{"id":7,"quantity":1.5},{"id":"8"},{"id":9}]', 'k'],
      ],
      want: { '9': 'pending' },
    },
  ] as const)('$name', ({ given, want }) => {
    const file = tempFile('seen.yaml');
    const contract = defaultContract();
    const recorder = new Recorder({ file, upstream: 'http://h/v1', contract, note: () => {} });
    const upstream = parseUpstream('http://h/v1');
    if (!upstream.ok) throw new Error(upstream.error);
    // Through the judge: the observer's memory of each scope's last list is what "left the list" reads.
    const judge = new TrafficJudge({
      contract,
      upstream: upstream.value,
      log: new FindingLog(),
      replaceViolations: false,
      judgeClient: false,
      record: recorder,
    });
    for (const [method, path, status, text, scope] of given) {
      const bytes = Buffer.from(text ?? '');
      judge.judge({
        method,
        target: `/v1${path}`,
        requestHeaders: { authorization: `Bearer ${scope}-0123456789` },
        requestBody: { bytes: Buffer.alloc(0), total: 0, truncated: false },
        response: { status, headers: {}, body: { bytes, total: bytes.length, truncated: false } },
        fault: null,
        startedAt: 0,
        durationMs: 1,
      });
    }
    recorder.close();
    const loaded = loadFixtureFile(file);
    if (!loaded.ok) throw loaded.error;
    const states = Object.fromEntries(
      [...loaded.value.orders.orders.values()].map((o) => [String(o.id), o.state]),
    );
    expect(states).toEqual(want);
  });

  it('stops adding orders at its byte bound, says so once, and leaves a file the mock loads', () => {
    const file = tempFile('capped.yaml');
    const notes: string[] = [];
    const recorder = new Recorder({
      file,
      upstream: 'http://staging.test/v1',
      contract: defaultContract(),
      note: (line) => notes.push(line),
      maxBytes: 1024 + 200,
    });
    const orders = Array.from({ length: 20 }, (_, i) => `{"id":${i},"petId":1,"quantity":1}`);
    const text = `[${orders.join(',')}]`;
    const seen = { method: 'GET', path: '/store/orders', status: 200, text, headers: {}, bearer: true };
    recorder.see(seen, { before: null, after: new Map() });
    recorder.close();
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(
      /reached .* MiB \(the fixture loader's bound\); orders seen from now on are not recorded/,
    );
    expect(readFileSync(file).length).toBeLessThanOrEqual(1024 + 200);
    const loaded = loadFixtureFile(file);
    expect(loaded.ok && loaded.value.orders.orders.size).toBeGreaterThan(0);
  });

  it('refuses a file it cannot write with one line and exit 2', async () => {
    let stderr = '';
    const code = await proxyCommand(
      ['--upstream', 'http://127.0.0.1:9/v1', '--record', '/proc/no-such-dir/recorded.yaml'],
      {
        stdout: { write: () => true },
        stderr: { write: (t: string) => (stderr += t) },
        env: {},
        stop: Promise.resolve(),
      },
    );
    expect(code).toBe(2);
    expect(stderr).toMatch(
      /^petstore proxy: cannot write --record \/proc\/no-such-dir\/recorded\.yaml \(ENOENT\); check the path\. Run/,
    );
  });
});
