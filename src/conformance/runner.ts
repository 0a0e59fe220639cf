/**
 * Runs the checks against one target and returns the results as a value. The run always ends: every
 * request has a time limit, every check is isolated from the others' exceptions, and nothing the target
 * sends can make it throw. The key is redacted from the whole result before it is returned.
 */
import { type Contract, defaultContract, parseExactJson } from '../contract/index.js';
import type { Exchange } from '../judge/exchange.js';
import { redactDeep } from '../judge/redact.js';
import { operationCoverage } from '../judge/report/input.js';
import type { Judgement } from '../judge/rules.js';
import type {
  CheckResult,
  ConformanceResult,
  Level,
  OperationCoverage,
  Outcome,
  StoppedOutcome,
  Unreachable,
} from '../judge/types.js';
import { sendableKey } from './api-key.js';
import { CHECKS, type Check, genericChecks, PENDING_PRIORITY } from './checks/index.js';
import { CheckContext, type ResolvedOptions } from './context.js';
import { DEFAULT_FUZZ_REQUESTS, DEFAULT_SEED, type FuzzBudget, MAX_FUZZ_REQUESTS } from './fuzz/phase.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './gateway.js';
import type { TransportErrorKind } from './http-client.js';
import {
  type ConformanceOptions,
  ConformanceOptionsError,
  checkOptions,
  DEFAULT_LIVE_PROBE_MS,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_TIMEOUT_MS,
} from './options.js';
import { speaksTls } from './tls-probe.js';

export { ConformanceOptionsError };

/** The checks an `only` list selects (an exact id, or a prefix ending at a dot), and the entries that select none. */
export function selectChecks(
  only: readonly string[],
  contract: Contract = defaultContract(),
): { checks: Check[]; unknown: string[] } {
  const all = allChecks(contract);
  if (only.length === 0) return { checks: all, unknown: [] };
  const matches = (entry: string, id: string) => id === entry || id.startsWith(`${entry}.`);
  return {
    checks: all.filter((check) => only.some((entry) => matches(entry, check.id))),
    unknown: only.filter((entry) => !all.some((check) => matches(entry, check.id))),
  };
}

/** The hand-written checks and the generic ones the contract's operations and parameters call for. */
export function allChecks(contract: Contract): Check[] {
  return [...CHECKS, ...genericChecks(contract)];
}

/** How a run with these options retries 429 and 503 and paces its requests (D22). */
export function retryPolicy(options: ConformanceOptions): RetryPolicy {
  const budgetMs = options.retryBudgetMs ?? DEFAULT_RETRY_POLICY.budgetMs;
  return { ...DEFAULT_RETRY_POLICY, budgetMs, rateLimit: options.rateLimit ?? null };
}

/** The fuzz phase's budget and seed: the fixed default unless given (D23); `'random'` is drawn here, so the report can say it. */
export function fuzzBudget(options: ConformanceOptions): FuzzBudget {
  const timeMs = options.fuzzTimeMs ?? null;
  const requests = options.fuzzRequests ?? (timeMs === null ? DEFAULT_FUZZ_REQUESTS : MAX_FUZZ_REQUESTS);
  const seed =
    options.seed === 'random' ? Math.floor(Math.random() * 2 ** 31) : (options.seed ?? DEFAULT_SEED);
  return { requests, timeMs, seed };
}

function resolve(options: ConformanceOptions): ResolvedOptions {
  const key = sendableKey(options.apiKey);
  return {
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    apiKey: key.ok ? key.value : options.apiKey,
    pendingOrders: (options.pendingOrders ?? []).map(String),
    shippedOrders: (options.shippedOrders ?? []).map(String),
    destructive: options.destructive ?? false,
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    only: [...(options.only ?? [])],
    petId: options.petId === undefined ? null : String(options.petId),
    fetch: interruptible(options.fetch ?? globalThis.fetch, options.signal),
    contract: options.contract ?? defaultContract(),
    retry: retryPolicy(options),
    environment: options.soleClient ? 'sole-client' : options.shared ? 'shared' : 'auto',
    liveProbeMs: options.liveProbeMs ?? DEFAULT_LIVE_PROBE_MS,
    fuzz: fuzzBudget(options),
  };
}

/** A fetch whose requests are also aborted by `stop` (issue 25: a signal aborts the checks in flight). */
function interruptible(base: typeof fetch, stop: AbortSignal | undefined): typeof fetch {
  if (!stop) return base;
  return (input, init) =>
    base(input, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, stop]) : stop });
}

const INT64_EXACT = 'cancel.int64-exact';

/**
 * Gives pending ids to the destructive checks that consume them, most important first. `listed` are the
 * named pending ids the first list showed: one it did not show is gone or hidden, and no check can use it.
 */
function allocatePendingIds(
  checks: readonly Check[],
  options: ResolvedOptions,
  listed: readonly string[],
): Map<string, string[]> {
  const free = [...listed];
  const byId = new Map<string, string[]>();
  // Array.prototype.sort is stable (ES2019), so checks of the same rank keep the table's order.
  const ordered = [...checks].sort((a, b) => rank(a.id) - rank(b.id));
  for (const check of ordered) {
    const wanted = check.needs?.pendingOrders ?? 0;
    if (wanted === 0 || !options.destructive) continue;
    if (free.length >= wanted) byId.set(check.id, free.splice(0, wanted));
  }
  // A pending id above 2^53 that no check took lets cancel.int64-exact cancel it by its exact id.
  const big = free.filter((id) => BigInt(id) > 2n ** 53n || BigInt(id) < -(2n ** 53n));
  if (options.destructive && big.length > 0 && checks.some((c) => c.id === INT64_EXACT)) {
    byId.set(INT64_EXACT, big);
  }
  return byId;
}

function rank(id: string): number {
  const index = PENDING_PRIORITY.indexOf(id);
  return index === -1 ? PENDING_PRIORITY.length : index;
}

/** Why a check cannot run with these options, or `null` when it can. */
function missingRequirement(
  check: Check,
  options: ResolvedOptions,
  allocated: Map<string, string[]>,
  stale: ReadonlyMap<string, Exchange>,
  unlisted: readonly string[] = [],
): Judgement | null {
  const needs = check.needs ?? {};
  if (needs.destructive && !options.destructive) {
    return {
      kind: 'skip',
      reason: 'it cancels pending orders, so it runs only when asked to',
      enableWith: needs.pendingOrders ? '--destructive --pending-order ID' : '--destructive',
    };
  }
  if ((needs.pendingOrders ?? 0) > 0 && !allocated.has(check.id) && stale.size > 0) {
    // A rerun without fresh ids is a setup matter, not the server's fault: said as such, once per check.
    const gone = [...stale].map(
      ([id, e]) =>
        `order ${id} is no longer pending (cancelled by an earlier run?): the first list did not show it and its cancel answered ${e.outcome.ok ? e.outcome.value.status : 'nothing'}`,
    );
    return {
      kind: 'skip',
      reason: `${gone.join('; ')}; name a fresh pending order for this check`,
      enableWith: '--pending-order ID (a pending order no earlier run cancelled)',
    };
  }
  if ((needs.pendingOrders ?? 0) > 0 && !allocated.has(check.id) && unlisted.length > 0) {
    // A setup note, not a silent skip: ids the list does not show (a stateless server, another environment).
    return {
      kind: 'skip',
      reason: unlistedNote(unlisted),
      enableWith: '--pending-order ID (an id the list shows)',
    };
  }
  if ((needs.pendingOrders ?? 0) > 0 && !allocated.has(check.id)) {
    const given = options.pendingOrders.length;
    return {
      kind: 'skip',
      reason: `it consumes a pending order of its own, and the ${given} pending id(s) given went to other checks (order: ${PENDING_PRIORITY.join(', ')})`,
      enableWith: '--pending-order ID',
    };
  }
  if (needs.shippedOrders && options.shippedOrders.length === 0) {
    return {
      kind: 'skip',
      reason: 'it needs the id of an order that has shipped',
      enableWith: '--shipped-order ID',
    };
  }
  if (needs.givenOrders && options.pendingOrders.length + options.shippedOrders.length === 0) {
    return {
      kind: 'skip',
      reason: 'it needs order ids to look for in the list',
      enableWith: '--pending-order ID or --shipped-order ID',
    };
  }
  return null;
}

function toResult(
  check: Check,
  level: Level,
  judgement: Judgement,
  durationMs: number,
  consumed: string[],
): CheckResult {
  const base = {
    id: check.id,
    title: check.title,
    citation: check.citation,
    level,
    operationId: check.operationId,
    durationMs,
    consumedOrders: consumed,
  };
  if (judgement.kind === 'skip') {
    return {
      ...base,
      outcome: 'SKIP',
      message: `${judgement.reason}${judgement.enableWith ? ` (enable with ${judgement.enableWith})` : ''}`,
      findings: [],
      notes: [],
      skip: { reason: judgement.reason, enableWith: judgement.enableWith },
    };
  }
  if (judgement.kind === 'pass') {
    return {
      ...base,
      outcome: 'PASS',
      message: judgement.message,
      findings: [],
      notes: judgement.notes ?? [],
      skip: null,
    };
  }
  // No usable answer (time-out, reset, redirect, oversized body) fails any check, whatever its level.
  const unusable = judgement.findings.some((f) => f.actual !== null && f.actual.transportError !== null);
  const judged = judgement.level ?? level;
  const outcome: Outcome = judged === 'failure' || unusable ? 'FAIL' : 'WARN';
  return {
    ...base,
    level: judged,
    outcome,
    message: judgement.message,
    findings: judgement.findings,
    notes: judgement.notes ?? [],
    skip: null,
  };
}

async function runOne(check: Check, ctx: CheckContext, pendingIds: readonly string[]): Promise<Judgement> {
  ctx.currentCheck = check.id;
  try {
    return await check.run(ctx, pendingIds);
  } catch (error) {
    // A bug in a check: report it on that check and go on with the others.
    return {
      kind: 'violation',
      message: `internal error in the check: ${error instanceof Error ? error.message : String(error)}`,
      findings: [],
    };
  }
}

function coverage(ctx: CheckContext): OperationCoverage[] {
  return operationCoverage(ctx.options.contract, (operationId) => {
    const seen = new Set<number>();
    for (const exchange of ctx.exchanges) {
      if (exchange.operationId === operationId && exchange.outcome.ok)
        seen.add(exchange.outcome.value.status);
    }
    return seen;
  });
}

/** The transport failures that mean nothing could be checked (exit 2), each with what to check. */
const UNREACHABLE_HINTS: Partial<Record<TransportErrorKind, string>> = {
  refused: 'check that the server is running and listening at --base-url (it should end in /v1)',
  unresolved: 'check the host name in --base-url',
  'blocked-port': 'serve the target on another port (6000, 6665–6669 and 10080 are among the blocked ones)',
  tls: 'use the scheme the target serves (http:// or https://) in --base-url',
};

/**
 * A setup problem found by the first request (the key's `GET /store/orders`): nothing is judged against
 * a dead address, a refused key or a list that is not there, because every check would blame the server
 * for the user's mistake.
 */
function setupProblem(ctx: CheckContext): Unreachable | null {
  const first = ctx.exchanges[0];
  if (!first) return null;
  const url = first.request.url;
  if (!first.outcome.ok) {
    const { kind, message } = first.outcome.error;
    const hint = UNREACHABLE_HINTS[kind];
    if (hint === undefined) return null;
    return {
      kind: kind === 'tls' ? 'tls' : 'unreachable',
      url,
      message: `${kind === 'tls' ? '' : 'cannot reach the target: '}GET ${url}: ${message}`,
      hint,
    };
  }
  const { status } = first.outcome.value;
  const notApi = notTheApi(first, ctx.options.contract);
  if (notApi !== null) return notApi;
  if (status === 401) {
    return {
      kind: 'key-refused',
      url,
      message: `the key was refused by the server: GET ${url} with it answered 401`,
      hint: 'set PETSTORE_API_KEY (or --api-key) to a key the target accepts as `Authorization: Bearer <key>`',
    };
  }
  if (status === 404) {
    const base = new URL(ctx.options.baseUrl).pathname.replace(/\/+$/, '');
    const { basePath } = ctx.options.contract;
    return {
      kind: 'no-list',
      url,
      message: `GET ${url} answered 404: ${
        base.endsWith(basePath)
          ? 'the documented list is not at this address'
          : `is \`${basePath}\` missing from the base URL?`
      }`,
      hint: base.endsWith(basePath)
        ? `give the base address the API is served under: a server that serves it at its root needs ${new URL(ctx.options.baseUrl).origin}${base.slice(0, -basePath.length)} (without ${basePath}), one that serves it elsewhere that path`
        : `give the base address the API is served under, usually ending in ${basePath}, e.g. ${new URL(ctx.options.baseUrl).origin}${base}${basePath}`,
    };
  }
  return null;
}

/**
 * Statuses that gateways, proxies and firewalls answer with on their own. The API documents none of them for
 * the list, so with a body that is not the API's Error they come from something in front of it.
 */
const IN_FRONT_STATUSES = new Set([403, 407, 502, 504]);

/** The first answer came from a firewall or gateway, not the API (D22): nothing can be judged through it. */
function notTheApi(first: Exchange, given: Contract): Unreachable | null {
  if (!first.outcome.ok) return null;
  const { status, headers, text } = first.outcome.value;
  if (!IN_FRONT_STATUSES.has(status)) return null;
  const parsed = parseExactJson(text);
  if (parsed.ok && given.validateSchema('Error', parsed.value).ok) return null;
  const url = first.request.url;
  const type = headers['content-type'] ?? 'no content type';
  return {
    kind: 'not-ready',
    url,
    message: `environment not ready: GET ${url} answered ${status} (${type}) with a body that is not the API's Error: a gateway, proxy or firewall in front of the API answered instead of it`,
    hint: 'check that this machine may reach the API through it (an allow-list, a VPN, a WAF rule for the key) and that --base-url is the address of the API',
  };
}

/** The gateway kept answering 429 or 503 past the retry budget (D22). */
function gatewayRefused(ctx: CheckContext): Unreachable | null {
  const refused = ctx.gateway.notReady;
  if (refused === null) return null;
  return {
    kind: 'not-ready',
    url: refused.url,
    message: refused.message,
    hint: 'a gateway or load balancer is throttling (429) or has no server to forward to (503); run again when the environment is up, or allow more waiting with --retry-budget',
  };
}

/** The outcome of a run stopped before judging. */
function unlistedNote(unlisted: readonly string[]): string {
  return `pending order(s) ${unlisted.join(', ')} given with --pending-order are not in the first list, and a cancel of each was not refused, so no check can use them (a stateless server, or ids of another environment?); list.includes-given-orders judges it`;
}

function stoppedOutcome(kind: Unreachable['kind']): StoppedOutcome {
  return kind === 'unreachable' ? 'unreachable' : kind === 'not-ready' ? 'not-ready' : 'setup-error';
}

/** What a plain http request to a TLS server gets: no HTTP answer at all, or (from some servers) a 400. */
const NO_HTTP_ANSWER = new Set<TransportErrorKind>(['reset', 'other', 'timeout']);

/**
 * `http://` aimed at a server that speaks TLS: the first request gets no HTTP answer (Node's https server
 * closes the connection, others send a TLS alert, which is not HTTP, or answer 400), which would look like a
 * server that resets every request. A TLS handshake with the same address that completes tells the setup
 * mistake apart from a broken plain server, whose handshake fails. Only on the network: a custom `fetch`
 * (an in-process handler) has no address to probe.
 */
async function plainHttpToTls(ctx: CheckContext, network: boolean): Promise<Unreachable | null> {
  const first = ctx.exchanges[0];
  const base = new URL(ctx.options.baseUrl);
  if (!first || base.protocol !== 'http:' || !network) return null;
  const answer = first.outcome.ok
    ? first.outcome.value.status === 400
      ? 'it answered 400'
      : null
    : NO_HTTP_ANSWER.has(first.outcome.error.kind)
      ? first.outcome.error.message
      : null;
  if (answer === null) return null;
  if (!(await speaksTls(base.hostname, Number(base.port || 80), ctx.options.timeoutMs))) return null;
  return {
    kind: 'tls',
    url: first.request.url,
    message: `GET ${first.request.url}: no HTTP answer (${answer}), but the target completes a TLS handshake at this address: it speaks https, not plain http`,
    hint: 'use https:// in --base-url',
  };
}

function checkedOptions(options: ConformanceOptions): { resolved: ResolvedOptions; checks: Check[] } {
  checkOptions(options);
  const resolved = resolve(options);
  const { checks, unknown } = selectChecks(resolved.only, resolved.contract);
  if (unknown.length > 0) {
    throw new ConformanceOptionsError(
      'only',
      (name) => `${name} ${unknown.join(', ')} names no check; the ids are listed in docs/conformance.md`,
    );
  }
  return { resolved, checks };
}

/**
 * Checks options as {@link runConformance} does, without sending anything: a front end can refuse them
 * before it registers tests or prints anything.
 *
 * @example validateOptions({ baseUrl: process.env.BASE_URL, apiKey: '' }) // throws ConformanceOptionsError
 */
export function validateOptions(options: ConformanceOptions): void {
  checkedOptions(options);
}

/**
 * Runs the conformance checks against a target.
 *
 * @example
 * const result = await runConformance({ baseUrl: 'http://127.0.0.1:4010/v1', apiKey: process.env.PETSTORE_API_KEY ?? '' });
 * if (result.outcome !== 'pass') process.exitCode = 1;
 */
export async function runConformance(options: ConformanceOptions): Promise<ConformanceResult> {
  const { resolved, checks } = checkedOptions(options);
  const started = Date.now();
  const ctx = new CheckContext(resolved);

  const results = new Map<string, CheckResult>();
  const stop = options.signal;
  // Set inside `judging`; typed wide so that the checks after the race see every value it can take.
  let unreachable = null as Unreachable | null;
  const judging = async () => {
    // The first request doubles as the reachability probe: nothing is judged against a dead address.
    ctx.currentCheck = 'list.orders';
    await ctx.initialListing();
    unreachable =
      gatewayRefused(ctx) ??
      setupProblem(ctx) ??
      (await plainHttpToTls(ctx, (options.fetch ?? globalThis.fetch) === globalThis.fetch));
    if (unreachable) return;
    await ctx.probeEnvironment();
    await ctx.findStalePending('list.includes-given-orders');
    const first = await ctx.initialListing();
    const listed = resolved.pendingOrders.filter((id) => first.ids === null || first.ids.has(id));
    const unlisted = resolved.destructive
      ? resolved.pendingOrders.filter((id) => !listed.includes(id) && !ctx.stalePending.has(id))
      : [];
    const allocated = allocatePendingIds(checks, resolved, listed);
    const ordered = [...checks.filter((c) => !c.sweep), ...checks.filter((c) => c.sweep)];
    for (const check of ordered) {
      // A gateway that stays refusing ends the run: what its 429s and 503s did to a check is not a verdict.
      if (ctx.gateway.notReady || stop?.aborted) break;
      ctx.currentCheck = check.id;
      const t0 = Date.now();
      const pendingIds = allocated.get(check.id) ?? [];
      const judgement =
        missingRequirement(check, resolved, allocated, ctx.stalePending, unlisted) ??
        (await runOne(check, ctx, pendingIds));
      const consumed = judgement.kind === 'skip' ? [] : (judgement.consumed ?? pendingIds);
      const level = check.levelIn?.(resolved.contract) ?? check.level;
      // A check whose requests the signal aborted has no verdict: it is left out, not failed.
      if (!stop?.aborted) results.set(check.id, toResult(check, level, judgement, Date.now() - t0, consumed));
    }
    unreachable = gatewayRefused(ctx);
    if (unreachable) results.clear();
    // Nothing judged because the pending ids are not listed: a setup matter (exit 2), never PASSED.
    const judged = [...results.values()].some((r) => r.outcome !== 'SKIP');
    if (!unreachable && !judged && unlisted.length > 0) {
      unreachable = {
        kind: 'pending-unlisted',
        url: first.exchange.request.url,
        message: `nothing was judged: ${unlistedNote(unlisted)}`,
        hint: 'name pending orders the list shows with --pending-order, or select checks that need none',
      };
    }
  };
  // A signal ends the run at once, even in a wait (Retry-After, the live probe); the requests in flight
  // are aborted through `fetch`.
  const stopped = new Promise<void>((done) => stop?.addEventListener('abort', () => done(), { once: true }));
  if (!stop?.aborted) await Promise.race([judging(), stopped]);
  const interrupted = stop?.aborted
    ? `${typeof stop.reason === 'string' ? stop.reason : 'interrupted'} during ${ctx.currentCheck ?? 'the run'}; ${results.size} check(s) had finished`
    : null;

  const checkResults = checks.flatMap((check) => results.get(check.id) ?? []);
  const count = (outcome: Outcome) => checkResults.filter((r) => r.outcome === outcome).length;
  const failed = count('FAIL');
  const result: ConformanceResult = {
    schemaVersion: 1,
    tool: 'petstore conformance',
    contractVersion: resolved.contract.version,
    baseUrl: resolved.baseUrl,
    destructive: resolved.destructive,
    startedAt: new Date(started).toISOString(),
    durationMs: Date.now() - started,
    outcome: interrupted
      ? 'interrupted'
      : unreachable
        ? stoppedOutcome(unreachable.kind)
        : failed > 0
          ? 'fail'
          : 'pass',
    ...(interrupted ? { interrupted } : {}),
    unreachable: interrupted ? null : unreachable,
    summary: {
      total: checkResults.length,
      passed: count('PASS'),
      failed,
      warned: count('WARN'),
      skipped: count('SKIP'),
      notSelected: allChecks(resolved.contract).length - checks.length,
      requests: ctx.exchanges.length + ctx.notKept,
    },
    checks: checkResults,
    coverage: coverage(ctx),
    retries: ctx.gateway.retries,
    retriesNotListed: ctx.gateway.retriesNotListed,
    retryPolicy: { ...resolved.retry, waitedMs: ctx.gateway.waitedMs },
    environment: ctx.environment.report(),
    ...(ctx.fuzzReport === null ? {} : { fuzz: ctx.fuzzReport }),
  };
  return redactDeep(result, resolved.apiKey);
}
