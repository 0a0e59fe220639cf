/**
 * What a check can ask of the run: send a request (recorded), send cancels and learn what they did to
 * the list, the order list as it was at the start and as it is now, an order id that does not exist,
 * and the pet probe (D11).
 */
import { type Contract, contract, parseExactJson } from '../contract/index.js';
import {
  type CancelledReading,
  describeReading,
  judgeCancelEffect,
  type ListSnapshot,
  type SentCancel,
  snapshotOfValue,
} from '../judge/cancel-effects.js';
import {
  authorizationValue,
  documentedErrorRule,
  type Exchange,
  matchOperation,
  type RequestPlan,
  reportRequest,
  VALID_AUTH,
} from '../judge/exchange.js';
import { finding } from '../judge/rules.js';
import type { Finding } from '../judge/types.js';
import type { FuzzBudget, FuzzReport } from './fuzz/phase.js';
import { Gateway, type RetryPolicy } from './gateway.js';

export interface ResolvedOptions {
  /** Without a trailing slash. */
  baseUrl: string;
  apiKey: string;
  pendingOrders: string[];
  shippedOrders: string[];
  destructive: boolean;
  timeoutMs: number;
  maxBodyBytes: number;
  only: string[];
  petId: string | null;
  fetch: typeof fetch;
  /** Where the levels of `x-petstore-conformance` come from. */
  contract: Contract;
  /** How 429 and 503 are retried and how fast the suite sends (D22). */
  retry: RetryPolicy;
  /** How much the fuzz phase sends, and its seed. */
  fuzz: FuzzBudget;
}

export interface Listing {
  exchange: Exchange;
  /**
   * Order ids (decimal text) of a JSON-array body; `null` when the list was not read in full as a JSON
   * array (an error, a body over the size cap, not JSON): then no id is known to be unused.
   */
  ids: Set<string> | null;
  /** Each listed order's exact JSON, by id; `null` as for `ids`. */
  snapshot: ListSnapshot | null;
  petIds: string[];
}

/** What a step of cancels did: the exchanges, and the changes to the list that break §3, D2 or D16. */
export interface CancelStep {
  exchanges: Exchange[];
  findings: Finding[];
  notes: string[];
}

export interface PetProbe {
  /** `yes`: the target serves GET /pets/{petId}; `unknown`: it did not show that it does. */
  served: 'yes' | 'unknown';
  petId: string;
  /** How the pet id was chosen, for the report. */
  source: string;
  exchange: Exchange | null;
}

function idText(value: unknown): string | null {
  return typeof value === 'number' || typeof value === 'bigint' ? String(value) : null;
}

function readListing(exchange: Exchange): Listing {
  const { outcome } = exchange;
  const unusable: Listing = { exchange, ids: null, snapshot: null, petIds: [] };
  if (!outcome.ok || outcome.value.status !== 200) return unusable;
  const parsed = parseExactJson(outcome.value.text);
  const snapshot = parsed.ok ? snapshotOfValue(parsed.value) : null;
  if (snapshot === null || !parsed.ok || !Array.isArray(parsed.value)) return unusable;
  const petIds: string[] = [];
  for (const item of parsed.value) {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) continue;
    const petId = idText(item.petId);
    if (petId !== null && !petIds.includes(petId)) petIds.push(petId);
  }
  return { exchange, ids: new Set(snapshot.keys()), snapshot, petIds };
}

/** The state of one run, handed to every check. */
export class CheckContext {
  readonly exchanges: Exchange[] = [];
  /** Hand-over between checks that share orders (cancel.pending-order → cancel.repeat). */
  readonly shared = new Map<string, unknown>();
  /** The check currently running; recorded on each exchange. */
  currentCheck = '';
  private initial: Promise<Listing> | null = null;
  private unknownId: Promise<string | null> | null = null;
  private pets: Promise<PetProbe> | null = null;
  private keylessPet: Promise<Exchange> | null = null;
  /** The list as last read: what the next cancel's effect is judged against. */
  private lastSnapshot: ListSnapshot | null = null;
  /** Whether the server drops or keeps cancelled orders in the list (D16), once a cancel showed it. */
  reading: CancelledReading | null = null;
  /** Every request goes through it: the run's pace, its retries of 429 and 503, and whether it must stop. */
  readonly gateway: Gateway;
  /** Requests sent but not kept in `exchanges` (the fuzz phase's: a budget of thousands must not pile up). */
  notKept = 0;
  /** What the fuzz phase did, once it ran. */
  fuzzReport: FuzzReport | null = null;

  constructor(readonly options: ResolvedOptions) {
    this.gateway = new Gateway(options.retry);
  }

  /** The key, for judgements to redact from their findings. */
  get key(): string {
    return this.options.apiKey;
  }

  /**
   * Sends a planned request and records the exchange, credited to the running check or to `creditTo`
   * (a request several checks share belongs to the check whose request it is).
   */
  async request(plan: RequestPlan, creditTo?: string, { keep = true } = {}): Promise<Exchange> {
    const { baseUrl, apiKey } = this.options;
    const url = `${baseUrl}${plan.path}`;
    const headers: Record<string, string> = { accept: 'application/json', ...plan.headers };
    const authorization = authorizationValue(plan.auth, apiKey);
    if (authorization !== null) headers.authorization = authorization;
    const checkId = creditTo ?? this.currentCheck;
    const operationId = matchOperation(plan.method, plan.path, this.options.contract);
    const request = {
      method: plan.method,
      url,
      headers,
      ...(plan.body === undefined ? {} : { body: plan.body }),
    };
    const outcome = await this.gateway.send(request, this.options);
    const exchange: Exchange = {
      seq: this.exchanges.length + 1,
      checkId,
      plan,
      path: plan.path,
      operationId,
      request: reportRequest(plan.method, url, headers, apiKey, plan.body),
      outcome,
      errorRule:
        plan.errorRule !== undefined
          ? plan.errorRule
          : outcome.ok
            ? documentedErrorRule(operationId, outcome.value.status, this.options.contract)
            : null,
    };
    if (keep) this.exchanges.push(exchange);
    else this.notKept += 1;
    return exchange;
  }

  /** `GET /store/orders` with the key, as it was before any check changed anything. */
  initialListing(): Promise<Listing> {
    this.initial ??= this.request({ method: 'GET', path: '/store/orders', auth: VALID_AUTH }).then(
      (exchange) => {
        const listing = readListing(exchange);
        this.lastSnapshot = listing.snapshot;
        return listing;
      },
    );
    return this.initial;
  }

  /** `GET /store/orders` now. */
  async freshListing(): Promise<Listing> {
    return readListing(await this.request({ method: 'GET', path: '/store/orders', auth: VALID_AUTH }));
  }

  /**
   * Sends cancels (several at once when given several), then reads the list again and judges what they
   * did (§3, D2, D16): every order no successful cancel named must still be listed and unchanged.
   */
  async cancel(plans: readonly RequestPlan[]): Promise<CancelStep> {
    await this.initialListing();
    const before = this.lastSnapshot;
    const exchanges = await Promise.all(plans.map((plan) => this.request(plan)));
    const first = exchanges[0];
    // Without the list before there is nothing to compare with, so the list is not read again.
    if (before === null || first === undefined) {
      return {
        exchanges,
        findings: [],
        notes: ['what the cancel did was not verified: the list could not be read before it'],
      };
    }
    const listing = await this.freshListing();
    const sent: SentCancel[] = exchanges.map((e) => {
      const raw = decodeURIComponent(e.plan.path.slice('/store/orders/'.length));
      return { raw, id: canonicalId(raw), status: e.outcome.ok ? e.outcome.value.status : null };
    });
    if (listing.snapshot === null) {
      this.lastSnapshot = null;
      const named = sent.map((c) => c.raw).join(', ');
      return {
        exchanges,
        findings: [
          finding(
            listing.exchange,
            this.key,
            `could not verify what the cancel of ${named} did: GET /store/orders gave no usable list afterwards`,
            'the list, to compare with the list before the cancel',
          ),
        ],
        notes: [],
      };
    }
    const verdict = judgeCancelEffect(before, listing.snapshot, sent, this.reading);
    this.lastSnapshot = listing.snapshot;
    const notes = [...verdict.notes];
    if (verdict.learned !== null && this.reading === null) {
      this.reading = verdict.learned;
      notes.push(describeReading(verdict.learned));
    }
    return {
      exchanges,
      findings: verdict.problems.map((p) => finding(first, this.key, p.message, p.expected)),
      notes,
    };
  }

  /**
   * An int64 id that names no order: not listed at the start and not given by the user. `null` when the
   * list was not read in full, so that no id is known to be unused: a cancel of a guessed id could cancel
   * a real order. Fixed candidates keep the run deterministic.
   */
  unknownOrderId(): Promise<string | null> {
    this.unknownId ??= this.initialListing().then((listing) => {
      if (listing.ids === null) return null;
      const known = new Set([...listing.ids, ...this.options.pendingOrders, ...this.options.shippedOrders]);
      let candidate = 424_242_424n;
      while (known.has(String(candidate))) candidate += 1n;
      return String(candidate);
    });
    return this.unknownId;
  }

  /** Ids that are neither listed at the start nor given: `null` when the list was not read in full. */
  async isUnused(id: bigint): Promise<boolean> {
    const listing = await this.initialListing();
    if (listing.ids === null) return false;
    const text = String(id);
    return (
      !listing.ids.has(text) &&
      !this.options.pendingOrders.includes(text) &&
      !this.options.shippedOrders.includes(text)
    );
  }

  /**
   * Whether the target serves the deprecated `GET /pets/{petId}` (D11), asked once with the key. The
   * pet id is `--pet-id`, else the `petId` of a listed order; a 2xx answer or a `Deprecation` header
   * shows the operation is served.
   */
  petProbe(): Promise<PetProbe> {
    this.pets ??= (async (): Promise<PetProbe> => {
      let petId = this.options.petId;
      let source = 'given by --pet-id';
      if (petId === null) {
        const listing = await this.initialListing();
        petId = listing.petIds[0] ?? null;
        source = 'the petId of the first listed order';
      }
      if (petId === null) {
        return {
          served: 'unknown',
          petId: '1',
          source: 'no pet id: none given and no listed order has a petId',
          exchange: null,
        };
      }
      const exchange = await this.request(
        { method: 'GET', path: `/pets/${encodeURIComponent(petId)}`, auth: VALID_AUTH },
        'pets.deprecation',
      );
      const { outcome } = exchange;
      const served =
        outcome.ok &&
        ((outcome.value.status >= 200 && outcome.value.status < 300) ||
          outcome.value.headers.deprecation !== undefined);
      return { served: served ? 'yes' : 'unknown', petId, source, exchange };
    })();
    return this.pets;
  }

  /** `GET /pets/{petId}` without a key, once: auth.getPet.no-header's request, and the evidence that the
   * path is behind authentication (a 401) even where the target does not show that it serves pets. */
  petWithoutKey(): Promise<Exchange> {
    this.keylessPet ??= this.petProbe().then((probe) =>
      this.request(
        { method: 'GET', path: `/pets/${encodeURIComponent(probe.petId)}`, auth: { kind: 'none' } },
        'auth.getPet.no-header',
      ),
    );
    return this.keylessPet;
  }
}

const orderIdParameter = (() => {
  const found = contract.operation('cancelOrder').parameters.find((p) => p.name === 'orderId');
  if (!found) throw new Error('the contract has no orderId parameter on cancelOrder');
  return found;
})();

/**
 * The order a path segment names when it is a canonical int64 (`42`, not `042`, `+42` or `-0`), by the
 * document's orderId parameter, else `null`.
 *
 * @example canonicalId('9007199254740993') // '9007199254740993'; canonicalId('1.5') // null
 */
export function canonicalId(raw: string): string | null {
  const parsed = contract.parseParameter(orderIdParameter, raw);
  return parsed.ok && String(parsed.value) === raw ? raw : null;
}
