/**
 * D16 on a live environment: another client's changes are not blamed on the suite's requests, every report
 * says the environment is live, `--sole-client` keeps the strict reading, and a change to an order that a
 * request of the suite named is judged in full whatever the mode.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { withBackgroundWriter } from '../../test-support/servers/background-writer.js';
import { BROKEN_SERVERS } from '../../test-support/servers/broken-servers.js';
import { CORRECT_SERVERS } from '../../test-support/servers/correct-servers.js';
import {
  type Behaviour,
  behaviour,
  CORRECT,
  MOCK_LIKE_READINGS,
  PENDING_IDS,
  SHIPPED_IDS,
  TARGET_KEY,
} from '../../test-support/servers/reference-server.js';
import { runSuiteAgainst } from '../../test-support/servers/run-suite.js';
import { renderHtml } from '../judge/report/html.js';
import { renderJunit } from '../judge/report/junit.js';
import { renderPretty } from '../judge/report/pretty.js';
import type { ConformanceResult } from '../judge/types.js';
import type { ConformanceOptions } from './options.js';
import { ConformanceOptionsError } from './options.js';
import { runConformance } from './runner.js';
import { runCommand } from './test-support/cli-harness.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const correct = (name: string): Behaviour => {
  const server = CORRECT_SERVERS.find((s) => s.name === name);
  if (!server) throw new Error(`no correct server ${name}`);
  return server.behaviour;
};

/**
 * The suite against a correct server whose writer moves an unrelated order every 20 ms. The two list reads
 * before the checks are 60 ms apart, so the writer has moved its order at least once between them.
 */
async function againstLiveServer(
  b: Behaviour,
  options: Partial<ConformanceOptions>,
): Promise<ConformanceResult> {
  const target = await withBackgroundWriter(b, { everyMs: 20 });
  try {
    return await runConformance({
      baseUrl: target.baseUrl,
      apiKey: TARGET_KEY,
      pendingOrders: PENDING_IDS,
      shippedOrders: SHIPPED_IDS,
      timeoutMs: 5_000,
      liveProbeMs: 60,
      ...options,
    });
  } finally {
    await target.close();
  }
}

const LIVE_LINE = /Live environment: [1-9]\d* changes? by other clients seen; judged in shared mode \(D16\)/;

describe('a correct server with another client at work passes, and every report says the environment is live', () => {
  it.each([
    ['read-only', { destructive: false }],
    ['destructive', { destructive: true }],
    ['read-only on a server that keeps cancelled orders listed', { destructive: false }],
    ['destructive on a server that keeps cancelled orders listed', { destructive: true }],
  ] as const)('%s', async (label, options) => {
    const server = correct(label.includes('keeps') ? 'keeps-cancelled-listed' : 'mock-like');
    const result = await againstLiveServer(server, options);
    expect(result.checks.filter((c) => c.outcome === 'FAIL').map((c) => `${c.id}: ${c.message}`)).toEqual([]);
    expect(result.outcome).toBe('pass');
    expect(result.environment).toMatchObject({ live: true, mode: 'shared', setBy: 'detected' });
    expect(result.environment?.changesByOthers).toBeGreaterThan(0);
    expect(result.environment?.reason).toMatch(/^order 80[01] (changed|left the list|appeared)/);
    const others = result.checks.find((c) => c.id === 'list.changed-by-others');
    expect(others?.outcome).toBe('WARN');
    expect(others?.message).toMatch(
      /^live environment: [1-9]\d* changes? by other clients seen; order 80[01] /,
    );
    expect(others?.message).toContain('another client may have made the change');
    expect(renderPretty(result, { color: false })).toMatch(LIVE_LINE);
    expect(renderHtml(result)).toMatch(LIVE_LINE);
    expect(renderJunit(result)).toMatch(/<property name="environment" value="Live environment: [1-9]/);
  });
});

describe('the strict reading', () => {
  it.each([
    ['read-only', false],
    ['destructive', true],
  ] as const)('--sole-client fails a %s run against the same server', async (_label, destructive) => {
    const result = await againstLiveServer(correct('mock-like'), {
      destructive,
      soleClient: true,
      fuzzRequests: 0,
    });
    expect(result.outcome).toBe('fail');
    expect(result.environment).toMatchObject({ live: true, mode: 'sole-client', setBy: 'flag' });
    const others = result.checks.find((c) => c.id === 'list.changed-by-others');
    expect(others?.outcome).toBe('FAIL');
    expect(others?.level).toBe('failure');
    expect(others?.message).toContain('--sole-client says no other client uses this server');
  });

  it('stays the default on an idle server: a collateral cancel fails the run', async () => {
    const server = BROKEN_SERVERS.find((s) => s.name === 'collateral-cancel');
    if (!server) throw new Error('no collateral-cancel server');
    const result = await runSuiteAgainst(server.behaviour, { fuzzRequests: 0 });
    expect(result.outcome).toBe('fail');
    expect(result.checks.find((c) => c.id === 'cancel.pending-order')?.outcome).toBe('FAIL');
    expect(result.environment).toMatchObject({
      live: false,
      mode: 'sole-client',
      setBy: 'default',
      changesByOthers: 0,
    });
    expect(renderPretty(result, { color: false })).not.toMatch(/environment/i);
  });
});

/** Refuses the cancel without a key, as it should, and cancels the order anyway. */
const cancelsOn401 = behaviour(MOCK_LIKE_READINGS, {
  async handle(b, request, store) {
    const match = /^\/store\/orders\/([^/]+)$/.exec(request.path);
    const id = match?.[1] === undefined ? null : b.parseOrderId(b, match[1]);
    const order = id === null ? undefined : store.find(id);
    if (
      request.method === 'DELETE' &&
      !b.authorized(b, request.authorization) &&
      order?.status === 'pending'
    ) {
      order.status = 'cancelled';
    }
    return CORRECT.handle(b, request, store);
  },
});

describe('a change to the order a request named is judged in full in shared mode', () => {
  it.each([
    ['declared with --shared on an idle server', { shared: true }],
    ['seen with another client at work', {}],
  ] as const)('a 401 that removes its own order fails, %s', async (_label, options) => {
    const result = await againstLiveServer(cancelsOn401, {
      destructive: true,
      only: ['auth.cancelOrder.pending-order'],
      fuzzRequests: 0,
      ...options,
    });
    expect(result.environment?.mode).toBe('shared');
    const check = result.checks.find((c) => c.id === 'auth.cancelOrder.pending-order');
    expect(check?.outcome).toBe('FAIL');
    expect(check?.message).toMatch(
      /^order (\d+) left the list after DELETE \/store\/orders\/\1 answered 401/,
    );
    expect(result.outcome).toBe('fail');
  });
});

describe('--shared and --sole-client', () => {
  it('--shared judges leniently from the start and says so, though nothing changed', async () => {
    const result = await runSuiteAgainst(correct('mock-like'), { shared: true, fuzzRequests: 0 });
    expect(result.outcome).toBe('pass');
    expect(result.environment).toMatchObject({
      live: false,
      mode: 'shared',
      setBy: 'flag',
      changesByOthers: 0,
    });
    expect(renderPretty(result, { color: false })).toContain(
      'No change by other clients seen; judged in shared mode (D16)',
    );
  });

  it('are refused together, by the library and by the command', async () => {
    await expect(
      runConformance({ baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'k', shared: true, soleClient: true }),
    ).rejects.toThrow(ConformanceOptionsError);
    const { code, stderr } = await runCommand(
      ['--base-url', 'http://127.0.0.1:9/v1', '--shared', '--sole-client'],
      { PETSTORE_API_KEY: TARGET_KEY },
    );
    expect(code).toBe(2);
    expect(stderr).toContain('--shared and --sole-client contradict each other');
  });

  it('the command writes the live-environment line into every report', async () => {
    const target = await withBackgroundWriter(correct('mock-like'), { everyMs: 20 });
    const dir = mkdtempSync(join(tmpdir(), 'conformance-live-'));
    dirs.push(dir);
    try {
      const { code, stdout } = await runCommand(
        [
          '--base-url',
          target.baseUrl,
          '--live-probe',
          '60ms',
          '--fuzz',
          '0',
          '--reporter',
          'pretty',
          '--reporter',
          'json',
          '--reporter',
          'junit',
          '--reporter',
          'html',
          '--output-dir',
          dir,
        ],
        { PETSTORE_API_KEY: TARGET_KEY },
      );
      expect(code).toBe(0);
      expect(stdout).toMatch(LIVE_LINE);
      const json = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8'));
      expect(json.environment).toMatchObject({ live: true, mode: 'shared', setBy: 'detected' });
      expect(readFileSync(join(dir, 'conformance-junit.xml'), 'utf8')).toContain('Live environment: ');
      expect(readFileSync(join(dir, 'conformance.html'), 'utf8')).toMatch(LIVE_LINE);
    } finally {
      await target.close();
    }
  });
});
