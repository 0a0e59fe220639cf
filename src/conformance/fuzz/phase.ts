// The fuzz phase: drawn requests judged by invariants.ts, a failure shrunk, replayable with --seed (D23).
// D19: a value a lenient reading could take as a listed or given order is replaced.
import fc from 'fast-check';
import type { RequestPlan } from '../../judge/exchange.js';
import { pass, serverReading, skip, verdict } from '../../judge/rules.js';
import type { FuzzRunReport } from '../../judge/types.js';
import { type Check, defineCheck } from '../checks/check.js';
import type { CheckContext } from '../context.js';
import { clearOf } from './id-readings.js';
import { fuzzViolations, type Violation } from './invariants.js';
import { corpus, type DrawnRequest, fuzzRequests, pathOf } from './requests.js';

export const FUZZ_CHECK_ID = 'fuzz.invariants';
export const DEFAULT_FUZZ_REQUESTS = 50;
/** The most requests shrinking a failure may add to the budget. */
const MAX_SHRINK_REQUESTS = 100;
/** With a time budget, still at most this many requests: every report has a bound. */
export const MAX_FUZZ_REQUESTS = 100_000;

/** D23: a run that names no seed draws the same requests, so it gives the same verdict, run after run. */
export const DEFAULT_SEED = 20_221;

/** A stand-in for an id that could name an order: no digits, so its only lenient reading is `atoi`'s 0. */
const STAND_IN = 'fuzz-id';

/** A drawn request as a plan, every id and value held to D19; `null` when one cannot be made safe. */
export function safePlan(drawn: DrawnRequest, known: ReadonlySet<string> | null) {
  let replaced = 0;
  let unsafe = false;
  const safe = (value: string): string => {
    if (known === null) unsafe = true;
    else if (!clearOf(value, known)) {
      if (!clearOf(STAND_IN, known)) unsafe = true;
      replaced += 1;
      return STAND_IN;
    }
    return value;
  };
  const ids = drawn.ids.map(safe);
  const query = drawn.query.map(([name, value]): [string, string] => [name, safe(value)]);
  const headers = Object.fromEntries(
    Object.entries(drawn.headers).map(([name, value]) => [name, safe(value)]),
  );
  if (unsafe) return null;
  const plan: RequestPlan = {
    method: drawn.method,
    path: pathOf({ ...drawn, ids, query }),
    auth: drawn.auth,
    headers,
    errorRule: null,
    ...(drawn.body === undefined ? {} : { body: drawn.body }),
  };
  return { plan, replaced };
}

async function runFuzz(ctx: CheckContext) {
  const { seed, requests, timeMs } = ctx.options.fuzz;
  if (requests === 0) return skip('turned off with --fuzz 0', '--fuzz N');
  // D19: no request may name a listed or named pending order (a shipped one it may); `null` without the list.
  const { ids: listed } = await ctx.initialListing();
  const { pendingOrders, shippedOrders } = ctx.options;
  const known = listed && new Set([...listed, ...pendingOrders].filter((id) => !shippedOrders.includes(id)));
  const report: FuzzRunReport = {
    seed,
    budget: { requests, timeMs },
    sent: 0,
    replacedIds: 0,
    notSent: 0,
    shrinks: 0,
    replay: `--seed ${seed}`,
  };
  ctx.fuzzReport = report;
  const cap = requests + MAX_SHRINK_REQUESTS;
  let failure: Violation[] = [];
  const readings = new Set<string>();
  // An unanswered request is not shrunk: each smaller try could wait as long.
  let unanswered = false;
  const property = fc.asyncProperty(fuzzRequests(ctx.options.contract), async (drawn) => {
    if (report.sent >= cap || ctx.gateway.notReady || unanswered) return true;
    const safe = safePlan(drawn, known);
    if (safe === null) {
      report.notSent += 1;
      return true;
    }
    report.sent += 1;
    report.replacedIds += safe.replaced;
    const exchange = await ctx.request(safe.plan, FUZZ_CHECK_ID, { keep: false });
    const violations = fuzzViolations(exchange, ctx.key, ctx.options.contract);
    const { operationId } = exchange;
    const reading = operationId && serverReading(ctx.options.contract, operationId, exchange);
    if (reading) readings.add(reading);
    const failed = violations.filter((v) => v.level === 'failure');
    if (failed.length > 0) failure = violations;
    if (violations.some((v) => v.invariant === 'answers')) unanswered = true;
    return failed.length === 0;
  });
  const details = await fc.check(property, {
    seed,
    numRuns: requests,
    examples: corpus(ctx.options.contract).map((request): [DrawnRequest] => [request]),
    ...(timeMs === null ? {} : { plugins: [fc.interruptAfterTimeLimit(timeMs)] }),
  });
  report.shrinks = details.numShrinks;
  if (report.sent === 0) {
    return skip(
      known === null
        ? 'the list was not read in full, so no generated request was sent: any value could name an order (D19)'
        : 'every generated request could name a listed or given order under a lenient reading, so none was sent (D19)',
      null,
    );
  }
  const summary = `${report.sent} request(s) from seed ${seed} (replay with --seed ${seed})`;
  const notes = [
    `seed ${seed}: replay with --seed ${seed}`,
    known === null &&
      'the list was not read in full, so no generated id or value was sent (any could name an order)',
    ...[...readings].map((r) => `the server's reading: ${r}`),
    report.replacedIds > 0 &&
      `${report.replacedIds} generated id(s) or value(s) replaced: a lenient reading of them names a listed or given order`,
  ].filter((note) => note !== false);
  if (!details.failed) return pass(summary, notes);
  const warnings = failure
    .filter((v) => v.level === 'warning')
    .map((v) => `warning (${v.invariant}): ${v.finding.message}`);
  const shrunk = details.numShrinks > 0 ? `, shrunk in ${details.numShrinks} step(s)` : '';
  return verdict(
    failure
      .filter((v) => v.level === 'failure')
      .map((v) => ({ ...v.finding, message: `${v.invariant}: ${v.finding.message}` })),
    '',
    [`${summary}${shrunk}`, ...notes, ...warnings],
  );
}

export const FUZZ_CHECKS: readonly Check[] = [
  defineCheck({
    id: FUZZ_CHECK_ID,
    title: 'requests generated from the document keep the invariants',
    citation: '§4, §7, D5, D9, D10, D19, D21',
    sends: `--fuzz N requests (default ${DEFAULT_FUZZ_REQUESTS}) drawn by fast-check from the document: generated path ids (percent-encoding, broken escapes, Unicode, long strings, signs, exponents), declared and undeclared query parameters, other methods, bodies, Authorization variants, unknown paths; never an id any lenient reading of which names a listed or given order`,
    passes:
      'no 5xx and an answer to every request; on a documented operation only a documented status (or 400/404/422 for a malformed path id, any 4xx for an invalid declared query parameter, 400/422 for an invalid declared header, 400/413/415 for a body), and every error an Error whose status equals the HTTP status; outside the document any 4xx (D10). A failure is shrunk and reported with its curl line and the seed',
    run: runFuzz,
  }),
];
