/** What a check can ask of the run: requests judged by `judgeExchange` and the observer, cancels, the list. */
import { parseInt64, sameInteger } from '../contract/index.js';
import {
  authorizationValue,
  documentedErrorRule,
  type Exchange,
  matchOperation,
  NO_AUTH,
  type RequestPlan,
  reportRequest,
  VALID_AUTH,
} from '../judge/exchange.js';
import {
  type CancelledReading,
  cancelEffect,
  describeReading,
  Observer,
  readList,
  type SentCancel,
  type StateFinding,
  seenExchange,
} from '../judge/observer.js';
import { finding, judgeExchange } from '../judge/rules.js';
import type { FuzzRunReport } from '../judge/types.js';
import { cancel } from './checks/check.js';
import { EnvironmentWatch, namedBy } from './environment.js';
import { Gateway } from './gateway.js';
import type { ResolvedOptions } from './options.js';

/** The order ids of a JSON-array body; `null` when the list was not read in full, or an item lacks a numeric id (D19). */
function readListing(exchange: Exchange) {
  const { outcome } = exchange;
  const read = outcome.ok && outcome.value.status === 200 ? readList(outcome.value.text) : null;
  if (read === null || read.orders.size !== read.items.length) return { exchange, ids: null, petIds: [] };
  const petIds = read.items.flatMap((item) => {
    const petId = typeof item === 'object' && item !== null && !Array.isArray(item) ? item.petId : null;
    return typeof petId === 'number' || typeof petId === 'bigint' ? [String(petId)] : [];
  });
  return { exchange, ids: new Set(read.orders.keys()), petIds: [...new Set(petIds)] };
}

/** The state of one run, handed to every check. */
export class CheckContext {
  readonly exchanges: Exchange[] = [];
  /** The order cancel.pending-order cancelled, for cancel.repeat. */
  cancelledOrder: string | null = null;
  currentCheck = '';
  /** Whether the server drops or keeps cancelled orders in the list (D16), once a cancel showed it. */
  reading: CancelledReading | null = null;
  readonly key: string;
  readonly gateway: Gateway;
  /** The fuzz phase's requests: a budget of thousands must not pile up in `exchanges`. */
  notKept = 0;
  fuzzReport: FuzzRunReport | null = null;
  readonly observer: Observer;
  readonly observations: (StateFinding & { exchange: Exchange })[] = [];
  readonly environment: EnvironmentWatch;
  /** Named pending orders unlisted at the start whose cancel was refused (an earlier run's), by id. */
  readonly stalePending = new Map<string, Exchange>();
  /** Orders listed unchanged right after their cancel's success, with that list read: gone later is stale (D16). */
  readonly keptUnchanged = new Map<string, Exchange>();

  constructor(readonly options: ResolvedOptions) {
    this.key = options.apiKey;
    this.gateway = new Gateway(options.retry);
    this.observer = new Observer(options.contract, { soleClient: options.environment === 'sole-client' });
    this.environment = new EnvironmentWatch(options.environment, options.contract);
  }

  async request(plan: RequestPlan, creditTo?: string, { keep = true } = {}): Promise<Exchange> {
    const sent = await this.send(plan, creditTo, keep);
    this.observe([sent]);
    return sent.exchange;
  }

  private async send(plan: RequestPlan, creditTo?: string, keep = true) {
    const { baseUrl, apiKey } = this.options;
    const url = `${baseUrl}${plan.path}`;
    const headers: Record<string, string> = { accept: 'application/json', ...plan.headers };
    const authorization = authorizationValue(plan.auth, apiKey);
    if (authorization !== null) headers.authorization = authorization;
    // fetch asks for it anyway; named, the curl line shows it (`--compressed`). Plans name headers in lower case.
    headers['accept-encoding'] ??= 'gzip, deflate';
    const operationId = matchOperation(this.options.contract, plan.method, plan.path);
    const writesAtSend = this.environment.sent(plan.method, plan.path);
    const startedAt = performance.now();
    const outcome = await this.gateway.send({ ...plan, url, headers }, this.options);
    const endedAt = performance.now();
    const request = reportRequest(plan.method, url, headers, apiKey, plan.body);
    const observed = { path: plan.path, request, outcome };
    const exchange: Exchange = {
      ...observed,
      seq: this.exchanges.length + 1,
      checkId: creditTo ?? this.currentCheck,
      plan,
      operationId,
      errorRule:
        plan.errorRule === undefined && outcome.ok
          ? documentedErrorRule(this.options.contract, operationId, outcome.value.status)
          : (plan.errorRule ?? null),
      judged: judgeExchange(this.options.contract, observed, apiKey),
    };
    if (keep) this.exchanges.push(exchange);
    else this.notKept += 1;
    const seen = seenExchange(exchange, authorization ?? undefined, startedAt, endedAt);
    const whole = operationId === 'listOrders' && !plan.path.includes('?');
    const listing = whole ? readListing(exchange) : null;
    return { exchange, seen, scope: authorization ?? '', writesAtSend, listing };
  }

  /** Feeds exchanges to the observer in its order (of overlapping cancels, the one that moved first). */
  private observe(sent: readonly Awaited<ReturnType<CheckContext['send']>>[]): void {
    for (const { exchange, seen, scope, writesAtSend, listing } of this.observer.order(sent)) {
      for (const found of this.observer.observe({ key: scope, orders: scope }, seen, exchange.seq)) {
        this.observations.push({ ...found, exchange });
      }
      // D16: what changed since the last whole list read may be another client's.
      if (listing?.ids) {
        const { before, after } = this.observer.compared(scope);
        if (after !== null) this.environment.listRead(before, after, writesAtSend, exchange);
      }
    }
  }

  pathOf(operationId: string, value = ''): string {
    return this.options.contract
      .operation(operationId)
      .path.replace(/\{[^}]*\}/g, () => encodeURIComponent(value));
  }

  /** The list read with the key, as it was before any check changed anything. */
  readonly initialListing = once(() => this.freshListing());

  async freshListing() {
    const sent = await this.send({ method: 'GET', path: this.pathOf('listOrders'), auth: VALID_AUTH });
    this.observe([sent]);
    return sent.listing ?? readListing(sent.exchange);
  }

  /** Reads the list again `liveProbeMs` later, before any check: what changed was another client's (D16). */
  async probeEnvironment(): Promise<void> {
    const first = await this.initialListing();
    if (first.ids === null) return;
    if (this.options.liveProbeMs > 0) await new Promise((r) => setTimeout(r, this.options.liveProbeMs));
    const second = await this.freshListing();
    for (const id of second.ids ?? []) first.ids.add(id);
  }

  /** A named pending order the first list lacks is cancelled once: a 404 or 409 (D2) means an earlier run did. */
  async findStalePending(creditTo: string): Promise<void> {
    const listing = await this.initialListing();
    if (!this.options.destructive || listing.ids === null) return;
    for (const id of this.options.pendingOrders.filter((p) => !listing.ids?.has(p))) {
      const exchange = await this.request(cancel(this, id), creditTo);
      const status = exchange.outcome.ok ? exchange.outcome.value.status : null;
      if (status === 404 || status === 409) this.stalePending.set(id, exchange);
    }
  }

  /** Sends cancels (at once when several), reads the list, and judges what they did by the observer's lists (D16). */
  async cancel(plans: readonly RequestPlan[]) {
    const { ids } = await this.initialListing();
    // Read just before the step, so that what another client changed since is not blamed on it.
    if (ids !== null) await this.freshListing();
    const scope = authorizationValue(VALID_AUTH, this.key) ?? '';
    const before = ids === null ? null : this.observer.compared(scope).after;
    // Cancels sent together are judged together: a double click's loser may be answered first.
    const together = await Promise.all(plans.map((plan) => this.send(plan)));
    this.observe(together);
    const exchanges = together.map((s) => s.exchange);
    const first = exchanges[0];
    const unverified = 'what the cancel did was not verified: the list could not be read before it';
    if (before === null || first === undefined) return { exchanges, findings: [], notes: [unverified] };
    const listing = await this.freshListing();
    const sent: SentCancel[] = together.map(({ exchange: e, seen }) => {
      const raw = this.observer.orderOf(seen.method, seen.path)?.raw ?? '';
      // D9: `02` or `0x2` names order 2 in another notation; a server acting on it cancelled that order.
      const id = canonicalId(raw) ?? sameInteger(raw)?.toString() ?? null;
      return { path: e.plan.path, raw, id, status: seen.status };
    });
    const after = this.observer.compared(scope).after;
    if (listing.ids === null || after === null) {
      const what = `could not verify what the cancel of ${sent.map((c) => c.raw).join(', ')} did: the list read after it gave no usable list`;
      const expected = 'the list, to compare with the list before the cancel';
      return { exchanges, findings: [finding(listing.exchange, this.key, what, expected)], notes: [] };
    }
    const verdict = cancelEffect(before, after, sent, this.reading);
    for (const { id, status } of sent) {
      const was = id === null ? undefined : before.get(id)?.text;
      const success = status !== null && status >= 200 && status < 300;
      if (success && id !== null && was !== undefined && after.get(id)?.text === was)
        this.keptUnchanged.set(id, listing.exchange);
    }
    const notes = [...verdict.notes];
    if (verdict.learned !== null && this.reading === null) {
      this.reading = verdict.learned;
      notes.push(describeReading(verdict.learned));
    }
    // Shared mode (D16): a change to an order no request of this step named, exactly or under a lenient
    // reading, is another client's. A change no cancel can make (pending → shipped) is another actor's in any mode.
    const named = new Set(plans.flatMap((plan) => namedBy(this.options.contract, plan.path)));
    const shipped = (id: string) => before.get(id)?.complete === false && after.get(id)?.complete === true;
    const theirs = verdict.problems.filter(
      (p) => shipped(p.orderId) || (this.environment.shared && !named.has(p.orderId)),
    );
    for (const p of theirs) {
      this.environment.record(p.message, listing.exchange, 'during');
      notes.push(
        shipped(p.orderId)
          ? `${p.message}; no cancel can ship an order (the state table), so another actor made the change (D16)`
          : `${p.message}; no request of this step named it: another client may have made the change (shared mode, D16)`,
      );
    }
    return {
      exchanges,
      findings: verdict.problems
        .filter((p) => !theirs.includes(p))
        .map((p) => finding(first, this.key, p.message, p.expected)),
      notes,
    };
  }

  /** An int64 id neither listed nor given; `null` when the list was not read in full (D19). */
  readonly unknownOrderId = once(() =>
    this.initialListing().then(({ ids }) => {
      const taken = new Set([...(ids ?? []), ...this.options.pendingOrders, ...this.options.shippedOrders]);
      let candidate = 424_242_424n;
      while (taken.has(String(candidate))) candidate += 1n;
      return ids === null ? null : String(candidate);
    }),
  );

  /** Whether the target serves the deprecated `GET /pets/{petId}` (D11): a 2xx or a `Deprecation` header. */
  readonly petProbe = once(async () => {
    const given = this.options.petId;
    const petId = given ?? (await this.initialListing()).petIds[0] ?? null;
    const source = given === null ? 'the petId of the first listed order' : 'given by --pet-id';
    const none = 'no pet id: none given and no listed order has a petId';
    if (petId === null) return { served: 'unknown' as const, petId: '1', source: none, exchange: null };
    const plan = { method: 'GET', path: this.pathOf('getPet', petId), auth: VALID_AUTH };
    const exchange = await this.request(plan, 'pets.deprecation');
    const { outcome } = exchange;
    const served =
      outcome.ok && (outcome.value.status < 300 || outcome.value.headers.deprecation !== undefined);
    return { served: served ? ('yes' as const) : ('unknown' as const), petId, source, exchange };
  });

  /** `GET /pets/{petId}` without a key, once: its 401 shows the path is behind authentication. */
  readonly petWithoutKey = once(() =>
    this.petProbe().then(({ petId }) =>
      this.request(
        { method: 'GET', path: this.pathOf('getPet', petId), auth: NO_AUTH },
        'auth.getPet.no-header',
      ),
    ),
  );
}

function once<T>(make: () => T): () => T {
  let made: T | undefined;
  return () => (made ??= make());
}

/** The order a path segment names when it is a canonical int64 (`42`, not `042`, `+42` or `-0`), else `null`. */
export function canonicalId(raw: string): string | null {
  const parsed = parseInt64(raw);
  return parsed.ok && String(parsed.value) === raw ? raw : null;
}
