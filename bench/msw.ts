/**
 * Bench scenario 7: the mock under MSW's `setupServer` in Node, answering the order list through `fetch`,
 * side by side with a plain MSW handler that returns the same bytes and headers and does nothing else. The
 * ratio is the engine's cost (route, key, session, cached body) on top of MSW's own interception.
 *
 * It runs in a child process of bench/run.ts, because `setupServer` patches the process's HTTP clients,
 * which would then intercept the rest of the bench:
 *
 *   node --import tsx bench/msw.ts FIXTURES.json KEY DURATION_S ROUNDS   prints the figures as JSON
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { parseExactJson } from '../src/contract/lossless-json.js';
import type { FixtureData } from '../src/mock/fixtures.js';
import { createHandlers } from '../src/msw/index.js';
import { runApart } from './run-apart.js';

const CONCURRENCY = 10;

export interface MswLoad {
  rps: number;
  p50: number;
  p99: number;
}

export interface MswFigures {
  ours: MswLoad;
  plain: MswLoad;
  /** Both answered the same bytes. */
  sameBytes: boolean;
}

const median = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

/** `CONCURRENCY` loops of fetch for `seconds`; requests per second and latency percentiles in ms. */
async function load(url: string, headers: Record<string, string>, seconds: number): Promise<MswLoad> {
  const latencies: number[] = [];
  const end = performance.now() + seconds * 1000;
  const loop = async () => {
    while (performance.now() < end) {
      const t0 = performance.now();
      const response = await fetch(url, { headers });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
      latencies.push(performance.now() - t0);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, loop));
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? Number.NaN;
  return { rps: latencies.length / elapsed, p50: at(0.5), p99: at(0.99) };
}

async function measure(
  fixturesPath: string,
  key: string,
  seconds: number,
  rounds: number,
): Promise<MswFigures> {
  const parsed = parseExactJson(readFileSync(fixturesPath, 'utf8'));
  if (!parsed.ok) throw new Error(`${fixturesPath}: ${parsed.error}`);
  const server = setupServer(
    ...createHandlers({ fixtures: parsed.value as FixtureData, baseUrl: 'http://ours.test/v1' }),
  );
  server.listen({ onUnhandledRequest: 'error' });
  const auth = { authorization: `Bearer ${key}` };
  const ours = 'http://ours.test/v1/store/orders';
  const plain = 'http://plain.test/v1/store/orders';
  const recorded = await fetch(ours, { headers: auth });
  const body = new Uint8Array(await recorded.arrayBuffer());
  const headers = Object.fromEntries(recorded.headers);
  server.use(http.get(plain, () => new HttpResponse(body, { status: recorded.status, headers })));
  const check = new Uint8Array(await (await fetch(plain, { headers: auth })).arrayBuffer());
  const sameBytes = Buffer.compare(Buffer.from(body), Buffer.from(check)) === 0;
  const runs: Record<'ours' | 'plain', MswLoad[]> = { ours: [], plain: [] };
  for (let round = 0; round < rounds; round++) {
    for (const [name, url] of [
      ['ours', ours],
      ['plain', plain],
    ] as const) {
      if (round === 0) await load(url, auth, 1);
      runs[name].push(await load(url, auth, seconds));
    }
  }
  server.close();
  const summary = (loads: MswLoad[]): MswLoad => ({
    rps: median(loads.map((l) => l.rps)),
    p50: median(loads.map((l) => l.p50)),
    p99: median(loads.map((l) => l.p99)),
  });
  return { ours: summary(runs.ours), plain: summary(runs.plain), sameBytes };
}

/**
 * Runs the scenario in a child process and returns its figures.
 *
 * @example const { ours, plain } = await mswScenario(root, 'orders-100.json', 'bench-key', 3, 3)
 */
export function mswScenario(
  root: string,
  fixturesPath: string,
  key: string,
  seconds: number,
  rounds: number,
): Promise<MswFigures> {
  return runApart<MswFigures>(root, 'msw.ts', [fixturesPath, key, String(seconds), String(rounds)]);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [fixturesPath, key, seconds, rounds] = process.argv.slice(2);
  if (!fixturesPath || !key) throw new Error('usage: bench/msw.ts FIXTURES.json KEY [SECONDS] [ROUNDS]');
  const figures = await measure(fixturesPath, key, Number(seconds ?? 3), Number(rounds ?? 3));
  process.stdout.write(`${JSON.stringify(figures)}\n`);
}
