/**
 * What a check can ask of the run: send a request (recorded), the order list
 * as it was at the start and as it is now, an order id that does not exist, and the pet probe (D11).
 */
import { parseExactJson } from '../src/contract/index.js';
import {
  authorizationValue,
  documentedErrorRule,
  type Exchange,
  matchOperation,
  type RequestPlan,
  reportRequest,
  VALID_AUTH,
} from './exchange.js';
import { send } from './http-client.js';

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
}

export interface Listing {
  exchange: Exchange;
  /** Order ids (decimal text) of a JSON-array body; `null` when the body was not a usable list. */
  ids: Set<string> | null;
  petIds: string[];
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
  if (!outcome.ok || outcome.response.status !== 200) return { exchange, ids: null, petIds: [] };
  const parsed = parseExactJson(outcome.response.text);
  if (!parsed.ok || !Array.isArray(parsed.value)) return { exchange, ids: null, petIds: [] };
  const ids = new Set<string>();
  const petIds: string[] = [];
  for (const item of parsed.value) {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) continue;
    const id = idText(item.id);
    if (id !== null) ids.add(id);
    const petId = idText(item.petId);
    if (petId !== null && !petIds.includes(petId)) petIds.push(petId);
  }
  return { exchange, ids, petIds };
}

/** The state of one run, handed to every check. */
export class CheckContext {
  readonly exchanges: Exchange[] = [];
  /** Hand-over between checks that share orders (cancel.pending-order → cancel.repeat). */
  readonly shared = new Map<string, unknown>();
  /** The check currently running; recorded on each exchange. */
  currentCheck = '';
  private initial: Promise<Listing> | null = null;
  private unknownId: Promise<string> | null = null;
  private pets: Promise<PetProbe> | null = null;

  constructor(readonly options: ResolvedOptions) {}

  /** The key, for judgements to redact from their findings. */
  get key(): string {
    return this.options.apiKey;
  }

  /** Sends a planned request and records the exchange. */
  async request(plan: RequestPlan): Promise<Exchange> {
    const { baseUrl, apiKey } = this.options;
    const url = `${baseUrl}${plan.path}`;
    const headers: Record<string, string> = { accept: 'application/json' };
    const authorization = authorizationValue(plan.auth, apiKey);
    if (authorization !== null) headers.authorization = authorization;
    const checkId = this.currentCheck;
    const operationId = matchOperation(plan.method, plan.path);
    const outcome = await send({ method: plan.method, url, headers }, this.options);
    const exchange: Exchange = {
      seq: this.exchanges.length + 1,
      checkId,
      plan,
      path: plan.path,
      operationId,
      request: reportRequest(plan.method, url, headers, apiKey),
      outcome,
      errorRule:
        plan.errorRule !== undefined
          ? plan.errorRule
          : outcome.ok
            ? documentedErrorRule(operationId, outcome.response.status)
            : null,
    };
    this.exchanges.push(exchange);
    return exchange;
  }

  /** `GET /store/orders` with the key, as it was before any check changed anything. */
  initialListing(): Promise<Listing> {
    this.initial ??= this.request({ method: 'GET', path: '/store/orders', auth: VALID_AUTH }).then(
      readListing,
    );
    return this.initial;
  }

  /** `GET /store/orders` now. */
  async freshListing(): Promise<Listing> {
    return readListing(await this.request({ method: 'GET', path: '/store/orders', auth: VALID_AUTH }));
  }

  /**
   * An int64 id that names no order: not listed at the start and not given by the user. Fixed
   * candidates keep the run deterministic.
   */
  unknownOrderId(): Promise<string> {
    this.unknownId ??= this.initialListing().then((listing) => {
      const known = new Set([
        ...(listing.ids ?? []),
        ...this.options.pendingOrders,
        ...this.options.shippedOrders,
      ]);
      let candidate = 424_242_424n;
      while (known.has(String(candidate))) candidate += 1n;
      return String(candidate);
    });
    return this.unknownId;
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
      const exchange = await this.request({
        method: 'GET',
        path: `/pets/${encodeURIComponent(petId)}`,
        auth: VALID_AUTH,
      });
      const { outcome } = exchange;
      const served =
        outcome.ok &&
        ((outcome.response.status >= 200 && outcome.response.status < 300) ||
          outcome.response.headers.deprecation !== undefined);
      return { served: served ? 'yes' : 'unknown', petId, source, exchange };
    })();
    return this.pets;
  }
}
