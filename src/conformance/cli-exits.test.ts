/**
 * Every exit writes the reports (issue 25): a signal mid-run, and a reader that closes stdout early.
 * The command runs as a user runs it, `bin/petstore.js` in a process of its own (dist/ is built by the
 * vitest global setup).
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CORRECT_SERVERS } from '../../test-support/servers/correct-servers.js';
import {
  type Behaviour,
  startTarget,
  TARGET_KEY,
  targetHandler,
} from '../../test-support/servers/reference-server.js';
import { type RunningTarget, serve } from '../../test-support/servers/serve.js';
import { packageRoot } from '../contract/package-root.js';
import { createMock } from '../mock/index.js';
import { runConformance } from './runner.js';

const correct = CORRECT_SERVERS[0]?.behaviour as Behaviour;
const cleanup: Array<() => unknown> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

function outputDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-exits-'));
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function conformance(baseUrl: string, dir: string): ChildProcessWithoutNullStreams {
  const child = spawn(
    process.execPath,
    [
      join(packageRoot(), 'bin', 'petstore.js'),
      'conformance',
      '--base-url',
      baseUrl,
      '--live-probe',
      '0',
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
    { env: { ...process.env, PETSTORE_API_KEY: TARGET_KEY, NO_COLOR: '1' } },
  );
  cleanup.push(() => child.kill('SIGKILL'));
  return child;
}

const exitOf = (child: ChildProcessWithoutNullStreams) =>
  new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

/** A correct target that answers the first request and holds every later one open until closed. */
async function holdingTarget(): Promise<{ target: RunningTarget; held: Promise<void> }> {
  const handler = targetHandler(correct);
  let seen = 0;
  let received = () => {};
  const held = new Promise<void>((resolve) => (received = resolve));
  const target = await serve((req, res) => {
    seen += 1;
    if (seen === 1) return handler(req, res);
    received();
  });
  cleanup.push(() => target.close());
  return { target, held };
}

describe('petstore conformance stopped by a signal', () => {
  it.each([
    ['SIGTERM', 143],
    ['SIGINT', 130],
  ] as const)(
    '%s aborts the request in flight, writes every report as interrupted and exits %i',
    async (signal, code) => {
      const { target, held } = await holdingTarget();
      const dir = outputDir();
      const child = conformance(target.baseUrl, dir);
      const exited = exitOf(child);
      await held;
      child.kill(signal);
      expect(await exited).toBe(code);
      const json = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8'));
      expect(json.outcome).toBe('interrupted');
      expect(json.interrupted).toMatch(new RegExp(`^${signal} during `));
      const junit = readFileSync(join(dir, 'conformance-junit.xml'), 'utf8');
      expect(junit).toContain('<property name="outcome" value="interrupted"/>');
      expect(junit).toContain('type="interrupted"');
      expect(readFileSync(join(dir, 'conformance.html'), 'utf8')).toContain('INTERRUPTED');
    },
  );
});

describe('petstore conformance with stdout closed by its reader (| head)', () => {
  it('stops printing, not the run: the reports are written and the exit code is the verdict', async () => {
    const target = await startTarget(correct);
    cleanup.push(() => target.close());
    const dir = outputDir();
    const child = conformance(target.baseUrl, dir);
    const exited = exitOf(child);
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    expect(await exited).toBe(0);
    expect(stderr).not.toMatch(/EPIPE|internal error/);
    expect(JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')).outcome).toBe('pass');
    expect(existsSync(join(dir, 'conformance-junit.xml'))).toBe(true);
  });
});

describe('runConformance({ signal })', () => {
  it('keeps the verdicts of the checks that finished and leaves out the one the signal cut short', async () => {
    const mock = await createMock();
    cleanup.push(() => mock.close());
    const controller = new AbortController();
    let sent = 0;
    let cutShort = () => {};
    const held = new Promise<void>((resolve) => (cutShort = resolve));
    // The tenth request is held until the signal aborts it, as a server that hangs would be.
    const result = runConformance({
      baseUrl: 'http://mock.test/v1',
      apiKey: mock.apiKeys[0] ?? '',
      liveProbeMs: 0,
      fuzzRequests: 0,
      signal: controller.signal,
      fetch: (input, init) => {
        if (++sent < 10) return mock.handle(new Request(input, init));
        cutShort();
        return new Promise((_, reject) =>
          init?.signal?.addEventListener('abort', () => reject(init.signal?.reason)),
        );
      },
    });
    await held;
    controller.abort('SIGTERM');
    const { outcome, interrupted, checks } = await result;
    expect(outcome).toBe('interrupted');
    expect(interrupted).toMatch(/^SIGTERM during \S+; \d+ check\(s\) had finished$/);
    expect(checks.length).toBeGreaterThan(0);
    expect(checks.filter((c) => c.outcome === 'FAIL')).toEqual([]);
  });
});
