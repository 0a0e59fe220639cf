/**
 * The proxy's overhead, measured side by side (part of `npm run bench`): the same paced traffic, 1,000
 * requests per second of `GET /v1/store/orders` (the 100-order list), sent to the mock directly, through
 * `petstore proxy` and through `prism proxy`, in alternating 1-second slices (1,000 requests each; as
 * many slices per target as the other scenarios' seconds × rounds, 9 by default). Each row gives the
 * median of its slices' p50 and p99, and the p99 of all its requests together. The target is at most 1 ms
 * added at p99 over the direct call.
 *
 * autocannon reports whole milliseconds and sends as fast as it can; an overhead of a fraction of a
 * millisecond at a fixed rate needs its own open-loop sender: it sends on a 1 ms clock whatever the
 * answers do, and times each request from send to the last byte with performance.now().
 *
 * The sender runs in a fresh process of its own (this file, run as a script): inside the bench's process
 * it shared a heap grown by the autocannon runs before it, and its own collector pauses landed in every
 * row's tail, the direct one included. It sends through a lean client (raw-client.ts) that takes half the
 * CPU per request of node:http's, CPU that a 2-core machine would otherwise take from the servers
 * measured. It also records how late each request left against its clock, so that a tail of the sender
 * itself shows.
 *
 *   BENCH_ONLY=proxy npm run bench     this scenario alone (see bench/run.ts)
 */
import type { ChildProcess } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { FixedRequestPool } from './raw-client.js';
import { runApart } from './run-apart.js';

export interface ServerControl {
  /** Starts a node process and resolves once `probe` on `port` answers `wantStatus`. */
  start(
    args: string[],
    port: number,
    probe: { method: 'GET'; path: string; headers: Record<string, string> },
    wantStatus: number,
  ): Promise<{ child: ChildProcess }>;
  stop(child: ChildProcess): Promise<void>;
  freePort(): Promise<number>;
}

export interface PacedLoad {
  sent: number;
  failed: number;
  wrongStatus: number;
  /** The statuses other than 200, with their counts. */
  otherStatuses: Record<string, number>;
  p50Ms: number;
  p99Ms: number;
  /** How late the sender was at p99 against its 1 ms clock: its own tail, in every row alike. */
  sendLateP99Ms: number;
}

export interface ProxyOverhead {
  rate: number;
  /** 1-second slices per target, alternating. */
  slices: number;
  /**
   * Each target's figures: counts summed over its slices, percentiles the median of the slices'; and
   * the p99 of all its latencies together, which a burst of other work on the machine moves.
   */
  rows: Array<{ via: 'direct' | 'petstore proxy' | 'prism proxy'; load: PacedLoad; allP99Ms: number }>;
  /** p99 through the proxy minus p99 direct, in ms. */
  oursP99OverheadMs: number;
  prismP99OverheadMs: number;
  /** The machine's 1-minute load average before and after the paced rounds: how quiet it was. */
  loadAverage: [number, number];
}

const percentile = (sorted: number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? Number.NaN;

const median = (values: number[]): number =>
  percentile(
    [...values].sort((a, b) => a - b),
    0.5,
  );

/** Sends `rate` requests a second for `seconds`, open loop, and times each one. */
export async function pacedLoad(
  port: number,
  path: string,
  headers: Record<string, string>,
  rate: number,
  seconds: number,
  /** Receives every latency too, for a percentile over several runs. */
  all: number[] = [],
): Promise<PacedLoad> {
  const pool = new FixedRequestPool(port, path, headers);
  const total = Math.round(rate * seconds);
  const latencies: number[] = [];
  const late: number[] = [];
  const otherStatuses: Record<string, number> = {};
  let failed = 0;
  let wrongStatus = 0;
  let sent = 0;
  const inFlight = new Set<Promise<void>>();
  const one = async () => {
    const t0 = performance.now();
    const answer = await pool.send();
    if (!answer.ok) {
      failed += 1;
      return;
    }
    const ms = performance.now() - t0;
    latencies.push(ms);
    all.push(ms);
    if (answer.status !== 200) {
      wrongStatus += 1;
      otherStatuses[answer.status] = (otherStatuses[answer.status] ?? 0) + 1;
    }
  };
  const start = performance.now();
  while (sent < total) {
    // Every request whose time has come goes out now; then wait for the next tick of the clock.
    const due = Math.min(total, Math.floor(((performance.now() - start) * rate) / 1000) + 1);
    while (sent < due) {
      late.push(performance.now() - start - (sent * 1000) / rate);
      sent += 1;
      const p = one().then(() => {
        inFlight.delete(p);
      });
      inFlight.add(p);
    }
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  // An answer that never ends fails the request after 10 s instead of hanging the run.
  const drained = Promise.all(inFlight);
  const limit = setTimeout(() => pool.close(), 10_000);
  await drained;
  clearTimeout(limit);
  pool.close();
  latencies.sort((a, b) => a - b);
  late.sort((a, b) => a - b);
  return {
    sent,
    failed,
    wrongStatus,
    otherStatuses,
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
    sendLateP99Ms: percentile(late, 0.99),
  };
}

interface LoadPlan {
  targets: Array<{ via: string; port: number; path: string }>;
  headers: Record<string, string>;
  rate: number;
  seconds: number;
  rounds: number;
}

/** One target's slices, and the p99 of all their latencies together. */
interface TargetRun {
  slices: PacedLoad[];
  samples: number;
  allP99Ms: number;
}

/**
 * The whole paced run, in this process: a warm-up of each target, then `rounds` rounds of one slice per
 * target, the order turning each round so that no target always follows the same one.
 */
async function runPlan(plan: LoadPlan): Promise<Record<string, TargetRun>> {
  const { targets, headers, rate, seconds, rounds } = plan;
  const slices = new Map<string, PacedLoad[]>(targets.map((t) => [t.via, []]));
  const all = new Map<string, number[]>(targets.map((t) => [t.via, []]));
  // 3 s each: after 1 s (1,000 requests) the servers' code was not yet optimised, and the first slices
  // through the proxy showed it.
  for (const target of targets) await pacedLoad(target.port, target.path, headers, rate, 3);
  for (let round = 0; round < rounds; round++) {
    process.stderr.write(`  proxy overhead at ${rate} req/s: round ${round + 1} of ${rounds}\n`);
    for (let i = 0; i < targets.length; i++) {
      const target = targets[(round + i) % targets.length] as LoadPlan['targets'][number];
      const load = await pacedLoad(target.port, target.path, headers, rate, seconds, all.get(target.via));
      slices.get(target.via)?.push(load);
    }
  }
  return Object.fromEntries(
    targets.map(({ via }) => {
      const latencies = (all.get(via) ?? []).sort((a, b) => a - b);
      const run: TargetRun = {
        slices: slices.get(via) ?? [],
        samples: latencies.length,
        allP99Ms: percentile(latencies, 0.99),
      };
      return [via, run];
    }),
  );
}

/** Runs the plan in a fresh process of its own (this file as a script) and returns its figures. */
const runPlanApart = (root: string, plan: LoadPlan): Promise<Record<string, TargetRun>> =>
  runApart(root, 'proxy.ts', [JSON.stringify(plan)]);

/**
 * Measures the overhead of both proxies in front of a running upstream (the mock on `upstreamPort`).
 *
 * @example await measureProxyOverhead(control, { root, upstreamPort: 4010, key, seconds: 3, rounds: 3 })
 */
export async function measureProxyOverhead(
  control: ServerControl,
  options: {
    root: string;
    upstreamPort: number;
    key: string;
    seconds: number;
    rounds: number;
    rate?: number;
  },
): Promise<ProxyOverhead> {
  const { root, upstreamPort, key, seconds, rounds } = options;
  const rate = options.rate ?? 1000;
  const headers = { authorization: `Bearer ${key}` };
  const upstream = `http://127.0.0.1:${upstreamPort}/v1`;
  const ourPort = await control.freePort();
  const prismPort = await control.freePort();
  const ours = await control.start(
    [join(root, 'bin', 'petstore.js'), 'proxy', '--upstream', upstream, '--port', String(ourPort), '--quiet'],
    ourPort,
    { method: 'GET', path: '/v1/store/orders', headers },
    200,
  );
  // Prism serves the document's paths without the templated `{base_url}` server's /v1 (see run.ts), and
  // appends the path it receives to the upstream URL; so it gets /store/orders and forwards to …/v1/store/orders.
  const prism = await control.start(
    [
      join(root, 'node_modules', '@stoplight', 'prism-cli', 'dist', 'index.js'),
      'proxy',
      '-p',
      String(prismPort),
      '-h',
      '127.0.0.1',
      '-v',
      'silent',
      join(root, 'spec', 'openapi.yaml'),
      upstream,
    ],
    prismPort,
    { method: 'GET', path: '/store/orders', headers },
    200,
  );
  const targets = [
    { via: 'direct' as const, port: upstreamPort, path: '/v1/store/orders' },
    { via: 'petstore proxy' as const, port: ourPort, path: '/v1/store/orders' },
    { via: 'prism proxy' as const, port: prismPort, path: '/store/orders' },
  ];
  let runs: Record<string, TargetRun>;
  const loadBefore = loadavg()[0] ?? Number.NaN;
  // The same time as the other scenarios' rounds, cut into 1-second slices: a burst of other work on the
  // machine spoils a slice or two, and the median of the slices' percentiles passes over it.
  const slices = Math.max(1, Math.round(seconds * rounds));
  try {
    runs = await runPlanApart(root, { targets, headers, rate, seconds: 1, rounds: slices });
  } finally {
    await control.stop(ours.child);
    await control.stop(prism.child);
  }
  const rows = targets.map(({ via }) => {
    const loads = runs[via]?.slices ?? [];
    const otherStatuses: Record<string, number> = {};
    for (const load of loads) {
      for (const [status, count] of Object.entries(load.otherStatuses)) {
        otherStatuses[status] = (otherStatuses[status] ?? 0) + count;
      }
    }
    return {
      via,
      load: {
        sent: loads.reduce((n, l) => n + l.sent, 0),
        failed: loads.reduce((n, l) => n + l.failed, 0),
        wrongStatus: loads.reduce((n, l) => n + l.wrongStatus, 0),
        otherStatuses,
        p50Ms: median(loads.map((l) => l.p50Ms)),
        p99Ms: median(loads.map((l) => l.p99Ms)),
        sendLateP99Ms: median(loads.map((l) => l.sendLateP99Ms)),
      },
      allP99Ms: runs[via]?.allP99Ms ?? Number.NaN,
    };
  });
  const p99 = (via: string) => rows.find((r) => r.via === via)?.load.p99Ms ?? Number.NaN;
  return {
    rate,
    slices,
    rows,
    oursP99OverheadMs: p99('petstore proxy') - p99('direct'),
    prismP99OverheadMs: p99('prism proxy') - p99('direct'),
    loadAverage: [loadBefore, loadavg()[0] ?? Number.NaN],
  };
}

/** `0`, or the count with the statuses: `2 (502 × 2)`. */
const wrong = (load: PacedLoad): string => {
  const detail = Object.entries(load.otherStatuses).map(([status, count]) => `${status} × ${count}`);
  return detail.length === 0 ? String(load.wrongStatus) : `${load.wrongStatus} (${detail.join(', ')})`;
};

/** The overhead as markdown table lines for the bench report. */
export function overheadTable(overhead: ProxyOverhead): string[] {
  const lines = [
    `| 8 proxy at ${overhead.rate} req/s, GET orders (100); median of ${overhead.slices} alternating 1-s slices | p50 ms | p99 ms | p99 added ms | p99 of all requests ms | sent | failed | wrong status | sender late at p99 ms |`,
    '|---|---|---|---|---|---|---|---|---|',
  ];
  for (const { via, load, allP99Ms } of overhead.rows) {
    const added =
      via === 'petstore proxy'
        ? overhead.oursP99OverheadMs.toFixed(2)
        : via === 'prism proxy'
          ? overhead.prismP99OverheadMs.toFixed(2)
          : '';
    lines.push(
      `| ${via} | ${load.p50Ms.toFixed(2)} | ${load.p99Ms.toFixed(2)} | ${added} | ${allP99Ms.toFixed(2)} | ${load.sent} | ${load.failed} | ${wrong(load)} | ${load.sendLateP99Ms.toFixed(2)} |`,
    );
  }
  lines.push(
    '',
    `The machine's load average (1 min) before and after these slices: ${overhead.loadAverage.map((n) => n.toFixed(2)).join(' → ')}, on ${cpus().length} cores.`,
  );
  return lines;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const plan = process.argv[2];
  if (!plan) throw new Error('usage: bench/proxy.ts PLAN.json (started by measureProxyOverhead)');
  process.stdout.write(`${JSON.stringify(await runPlan(JSON.parse(plan) as LoadPlan))}\n`);
}
