/** Runs the checks against one target and returns the results as a value. */
import { type Contract, defaultContract, parseExactJson } from '../contract/index.js';
import type { TransportErrorKind } from '../judge/http-outcome.js';
import { redactDeep } from '../judge/redact.js';
import { operationCoverage, summarise } from '../judge/report/input.js';
import { type Judgement, skip } from '../judge/rules.js';
import type { CheckResult, ConformanceResult, Level, Unreachable } from '../judge/types.js';
import { CHECKS, type Check, genericChecks, PENDING_PRIORITY } from './checks/index.js';
import { CheckContext } from './context.js';
import { speaksTls } from './http-client.js';
import { type ConformanceOptions, ConformanceOptionsError, resolveOptions } from './options.js';

/** The checks an `only` list selects (an exact id, or a prefix ending at a dot), the entries that select none. */
export function selectChecks(only: readonly string[], contract: Contract = defaultContract()) {
  const all = [...CHECKS, ...genericChecks(contract)];
  const matches = (entry: string, id: string) => id === entry || id.startsWith(`${entry}.`);
  const checks = only.length === 0 ? all : all.filter((c) => only.some((entry) => matches(entry, c.id)));
  const unknown = only.filter((entry) => !all.some((check) => matches(entry, check.id)));
  return { checks, unknown, notSelected: all.length - checks.length };
}

/** The listed pending ids for the destructive checks in PENDING_PRIORITY order; big ones left to int64-exact. */
function allocatePendingIds(checks: readonly Check[], listed: readonly string[]): Map<string, string[]> {
  const free = [...listed];
  const byId = new Map<string, string[]>();
  const rank = (id: string) => PENDING_PRIORITY.indexOf(id) + 1 || Number.POSITIVE_INFINITY;
  for (const check of [...checks].sort((a, b) => rank(a.id) - rank(b.id))) {
    const wanted = check.needs?.pendingOrders ?? 0;
    if (wanted > 0 && free.length >= wanted) byId.set(check.id, free.splice(0, wanted));
  }
  const big = free.filter((id) => BigInt(id) > 2n ** 53n || BigInt(id) < -(2n ** 53n));
  if (big.length > 0 && checks.some((c) => c.id === 'cancel.int64-exact'))
    byId.set('cancel.int64-exact', big);
  return byId;
}

function missingRequirement(
  check: Check,
  { options, stalePending: stale }: CheckContext,
  allocated: Map<string, string[]>,
  unlisted: readonly string[],
): Judgement | null {
  const needs = check.needs ?? {};
  if (needs.destructive && !options.destructive) {
    return skip(
      'it cancels pending orders, so it runs only when asked to',
      needs.pendingOrders ? '--destructive --pending-order ID' : '--destructive',
    );
  }
  if ((needs.pendingOrders ?? 0) > 0 && !allocated.has(check.id)) {
    // A rerun without fresh ids, or ids the list does not show, is a setup matter, not the server's fault.
    if (stale.size > 0) {
      const gone = [...stale].map(
        ([id, e]) =>
          `order ${id} is no longer pending (cancelled by an earlier run?): the first list did not show it and its cancel answered ${e.outcome.ok ? e.outcome.value.status : 'nothing'}`,
      );
      return skip(
        `${gone.join('; ')}; name a fresh pending order for this check`,
        '--pending-order ID (a pending order no earlier run cancelled)',
      );
    }
    if (unlisted.length > 0) return skip(unlistedNote(unlisted), '--pending-order ID (an id the list shows)');
    return skip(
      `it consumes a pending order of its own, and the ${options.pendingOrders.length} pending id(s) given went to other checks (order: ${PENDING_PRIORITY.join(', ')})`,
      '--pending-order ID',
    );
  }
  if (needs.shippedOrders && options.shippedOrders.length === 0)
    return skip('it needs the id of an order that has shipped', '--shipped-order ID');
  if (needs.givenOrders && options.pendingOrders.length + options.shippedOrders.length === 0)
    return skip('it needs order ids to look for in the list', '--pending-order ID or --shipped-order ID');
  return null;
}

function toResult(
  { id, title, citation, operationId }: Check,
  level: Level,
  judgement: Judgement,
  durationMs: number,
  consumedOrders: string[],
): CheckResult {
  // The report's key order: these, then findings, skip, outcome, message, notes.
  const base = { id, title, citation, level, operationId, durationMs, consumedOrders };
  if (judgement.kind === 'skip') {
    const { reason, enableWith } = judgement;
    const message = `${reason}${enableWith ? ` (enable with ${enableWith})` : ''}`;
    return { ...base, findings: [], skip: { reason, enableWith }, outcome: 'SKIP', message, notes: [] };
  }
  const { message, notes = [] } = judgement;
  if (judgement.kind === 'pass')
    return { ...base, findings: [], skip: null, outcome: 'PASS', message, notes };
  // No usable answer (time-out, reset, redirect, oversized body) fails any check, whatever its level.
  const unusable = judgement.findings.some((f) => f.actual !== null && f.actual.transportError !== null);
  const judged = judgement.level ?? level;
  const outcome = judged === 'failure' || unusable ? 'FAIL' : 'WARN';
  return { ...base, level: judged, findings: judgement.findings, skip: null, outcome, message, notes };
}

const NO_HTTP_ANSWER = new Set<TransportErrorKind>(['reset', 'other', 'timeout']);
const UNREACHABLE_HINTS: Partial<Record<TransportErrorKind, string>> = {
  refused: 'check that the server is running and listening at --base-url (it should end in /v1)',
  unresolved: 'check the host name in --base-url',
  'blocked-port': 'serve the target on another port (6000, 6665–6669 and 10080 are among the blocked ones)',
  tls: 'use the scheme the target serves (http:// or https://) in --base-url',
};

/** Statuses a gateway, proxy or firewall answers on its own: the list documents none of them (D22). */
const IN_FRONT_STATUSES = new Set([403, 407, 502, 504]);

/** A setup problem the first request (the key's list) shows; judging past it would blame the server. */
async function setupProblem({ exchanges: [first], options }: CheckContext) {
  if (!first) return null;
  const { outcome } = first;
  const { url } = first.request;
  const { contract, timeoutMs } = options;
  const base = new URL(options.baseUrl);
  const stop = (kind: Unreachable['kind'], message: string, hint: string) => ({ kind, url, message, hint });
  // `http://` to a TLS server looks like resets (or a 400); a TLS handshake at that address tells them apart.
  const noHttp = outcome.ok
    ? outcome.value.status === 400 && 'it answered 400'
    : NO_HTTP_ANSWER.has(outcome.error.kind) && outcome.error.message;
  const probe = noHttp && options.fetch === globalThis.fetch && base.protocol === 'http:';
  if (probe && (await speaksTls(base.hostname, Number(base.port || 80), timeoutMs)))
    return stop(
      'tls',
      `GET ${url}: no HTTP answer (${noHttp}), but the target completes a TLS handshake at this address: it speaks https, not plain http`,
      'use https:// in --base-url',
    );
  if (!outcome.ok) {
    const { kind, message } = outcome.error;
    const hint = UNREACHABLE_HINTS[kind];
    if (hint === undefined) return null;
    return kind === 'tls'
      ? stop('tls', `GET ${url}: ${message}`, hint)
      : stop('unreachable', `cannot reach the target: GET ${url}: ${message}`, hint);
  }
  const { status, headers, text } = outcome.value;
  if (IN_FRONT_STATUSES.has(status)) {
    const parsed = parseExactJson(text);
    if (parsed.ok && contract.validateSchema('Error', parsed.value).ok) return null;
    return stop(
      'not-ready',
      `environment not ready: GET ${url} answered ${status} (${headers['content-type'] ?? 'no content type'}) with a body that is not the API's Error: a gateway, proxy or firewall in front of the API answered instead of it`,
      'check that this machine may reach the API through it (an allow-list, a VPN, a WAF rule for the key) and that --base-url is the address of the API',
    );
  }
  if (status === 401)
    return stop(
      'key-refused',
      `the key was refused by the server: GET ${url} with it answered 401`,
      'set PETSTORE_API_KEY (or --api-key) to a key the target accepts as `Authorization: Bearer <key>`',
    );
  if (status !== 404) return null;
  const path = base.pathname.replace(/\/+$/, '');
  const { basePath } = contract;
  const hint = 'give the base address the API is served under';
  const underBase = path.endsWith(basePath);
  return stop(
    'no-list',
    `GET ${url} answered 404: ${underBase ? 'the documented list is not at this address' : `is \`${basePath}\` missing from the base URL?`}`,
    underBase
      ? `${hint}: a server that serves it at its root needs ${base.origin}${path.slice(0, -basePath.length)} (without ${basePath}), one that serves it elsewhere that path`
      : `${hint}, usually ending in ${basePath}, e.g. ${base.origin}${path}${basePath}`,
  );
}

function unlistedNote(unlisted: readonly string[]): string {
  return `pending order(s) ${unlisted.join(', ')} given with --pending-order are not in the first list, and a cancel of each was not refused, so no check can use them (a stateless server, or ids of another environment?); list.includes-given-orders judges it`;
}

/** Checks options as {@link runConformance} does, without sending anything; returns them resolved. */
export function validateOptions(options: ConformanceOptions) {
  const resolved = resolveOptions(options);
  const { checks, unknown, notSelected } = selectChecks(resolved.only, resolved.contract);
  const text = `${unknown.join(', ')} names no check; the ids are listed in docs/conformance.md`;
  if (unknown.length > 0) throw new ConformanceOptionsError('only', (name) => `${name('only')} ${text}`);
  return { resolved, checks, notSelected };
}

/** Runs the checks against a target and returns the result, redacted of the key. */
export async function runConformance(options: ConformanceOptions): Promise<ConformanceResult> {
  const { resolved, checks, notSelected } = validateOptions(options);
  const started = Date.now();
  const ctx = new CheckContext(resolved);
  const results = new Map<string, CheckResult>();
  const stop = options.signal;
  let unreachable = null as Unreachable | null;
  const judging = async () => {
    ctx.currentCheck = 'list.orders';
    await ctx.initialListing();
    unreachable = ctx.gateway.notReady ?? (await setupProblem(ctx));
    if (unreachable) return;
    await ctx.probeEnvironment();
    await ctx.findStalePending('list.includes-given-orders');
    const first = await ctx.initialListing();
    const listed = resolved.pendingOrders.filter((id) => first.ids?.has(id) ?? true);
    const unlisted = resolved.destructive
      ? resolved.pendingOrders.filter((id) => !listed.includes(id) && !ctx.stalePending.has(id))
      : [];
    const allocated = resolved.destructive ? allocatePendingIds(checks, listed) : new Map<string, string[]>();
    for (const check of [...checks.filter((c) => !c.sweep), ...checks.filter((c) => c.sweep)]) {
      // What a gateway's 429s and 503s did to a check is not a verdict: a gateway that stays refusing ends the run.
      if (ctx.gateway.notReady || stop?.aborted) break;
      ctx.currentCheck = check.id;
      const t0 = Date.now();
      const pendingIds = allocated.get(check.id) ?? [];
      const judgement: Judgement =
        missingRequirement(check, ctx, allocated, unlisted) ??
        (await Promise.resolve()
          .then(() => check.run(ctx, pendingIds))
          .catch((error) => ({
            // A bug in a check is that check's verdict; the others still run.
            kind: 'violation',
            message: `internal error in the check: ${error instanceof Error ? error.message : String(error)}`,
            findings: [],
          })));
      const consumed = judgement.kind === 'skip' ? [] : (judgement.consumed ?? pendingIds);
      const level = check.levelIn?.(resolved.contract) ?? check.level;
      // A check whose requests the signal aborted has no verdict: it is left out, not failed.
      if (!stop?.aborted) results.set(check.id, toResult(check, level, judgement, Date.now() - t0, consumed));
    }
    unreachable = ctx.gateway.notReady;
    if (unreachable) results.clear();
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
  // A signal ends the run at once, even in a wait; the client aborts the requests in flight with it too.
  const stopped = new Promise<void>((done) => stop?.addEventListener('abort', () => done(), { once: true }));
  if (!stop?.aborted) await Promise.race([judging(), stopped]);
  const interrupted = stop?.aborted
    ? `${typeof stop.reason === 'string' ? stop.reason : 'interrupted'} during ${ctx.currentCheck ?? 'the run'}; ${results.size} check(s) had finished`
    : null;

  const checkResults = checks.flatMap((check) => results.get(check.id) ?? []);
  const summary = summarise(checkResults, ctx.exchanges.length + ctx.notKept, notSelected);
  const stoppedAs =
    unreachable?.kind === 'unreachable' || unreachable?.kind === 'not-ready'
      ? unreachable.kind
      : 'setup-error';
  const statusesOf = (id: string) =>
    new Set(
      ctx.exchanges.flatMap((e) => (e.operationId === id && e.outcome.ok ? e.outcome.value.status : [])),
    );
  const result: ConformanceResult = {
    schemaVersion: 1,
    tool: 'petstore conformance',
    contractVersion: resolved.contract.version,
    baseUrl: resolved.baseUrl,
    destructive: resolved.destructive,
    startedAt: new Date(started).toISOString(),
    durationMs: Date.now() - started,
    outcome: interrupted ? 'interrupted' : unreachable ? stoppedAs : summary.failed > 0 ? 'fail' : 'pass',
    ...(interrupted ? { interrupted } : {}),
    unreachable: interrupted ? null : unreachable,
    summary,
    checks: checkResults,
    coverage: operationCoverage(resolved.contract, statusesOf),
    retries: ctx.gateway.retries,
    retriesNotListed: ctx.gateway.retriesNotListed,
    retryPolicy: { ...resolved.retry, waitedMs: ctx.gateway.waitedMs },
    environment: ctx.environment.report(),
    ...(ctx.fuzzReport === null ? {} : { fuzz: ctx.fuzzReport }),
  };
  return redactDeep(result, resolved.apiKey);
}
