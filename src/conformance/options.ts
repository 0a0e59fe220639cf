/**
 * What `runConformance` takes: the target, the key, the orders the user names and how far the run may
 * go. The shapes of its result are the judge's (src/judge/types.ts), shared with every reporter.
 */
import type { Contract } from '../contract/index.js';

export interface ConformanceOptions {
  /** The target's base address, ending in the version segment: `http://127.0.0.1:4010/v1` (D12). */
  baseUrl: string;
  /** A valid API key for the target; sent as `Authorization: Bearer <key>` and never reported. */
  apiKey: string;
  /** Ids of orders that are pending on the target; destructive checks cancel some of them. */
  pendingOrders?: readonly (string | bigint)[];
  /** Ids of orders that have shipped on the target; cancelling them must be refused (409). */
  shippedOrders?: readonly (string | bigint)[];
  /** Run the checks that cancel pending orders (each consumes its own pending id). Default false. */
  destructive?: boolean;
  /** Per-request time limit in milliseconds, headers and body together. Default 10 000. */
  timeoutMs?: number;
  /** The most bytes of one response body the suite reads; the rest is aborted. Default 1 MiB. */
  maxBodyBytes?: number;
  /** Run only these checks: exact ids, or a prefix that ends at a dot (`auth` runs every `auth.*`). */
  only?: readonly string[];
  /** A pet id the target serves, for the D11 deprecation check; otherwise taken from a listed order. */
  petId?: string | bigint;
  /** The fetch to use: tests aim the suite at an in-process handler (`mock.handle`) with this. */
  fetch?: typeof fetch;
  /**
   * The contract whose `x-petstore-conformance` levels the run applies; by default the toolkit's own
   * (`spec/openapi.yaml`). Tests pass one built from an altered copy of the document (`buildContract`).
   */
  contract?: Contract;
  /**
   * The most time, in ms, the run may spend waiting to retry answers 429 and 503 (D22). Default 30 000;
   * 0 retries only answers that say `Retry-After: 0`.
   */
  retryBudgetMs?: number;
  /** The most requests the suite starts per second (its own pace, D22). Default: no pace of its own. */
  rateLimit?: number;
  /**
   * The suite is the target's only client (D16): every change to an order that it did not make is a failure,
   * even when it sees another client at work. Not with `shared`.
   */
  soleClient?: boolean;
  /**
   * Other clients may change orders while the suite runs (D16): a change to an order that no request of a
   * step named is a warning from the start. Not with `soleClient`. Without either, the run is strict until it
   * sees another client at work.
   */
  shared?: boolean;
  /**
   * How long apart, in ms, the two reads of the list before the checks are, to see whether other clients
   * are changing orders. Default 500; 0 reads twice at once.
   */
  liveProbeMs?: number;
  /** How many generated requests the fuzz phase sends (`fuzz.invariants`). Default 50; 0 turns it off. */
  fuzzRequests?: number;
  /** A time limit for the fuzz phase in ms, instead of a count (`--fuzz 10s`). */
  fuzzTimeMs?: number;
  /**
   * The fuzz phase's seed: the same seed against the same list sends the same requests. Default: a fixed
   * seed, so a server gets the same verdict every run (D23); `'random'` draws a new one (reported).
   */
  seed?: number | 'random';
  /**
   * Stops the run when aborted (the CLI aborts it on SIGINT and SIGTERM): the requests in flight are
   * aborted, the checks that finished keep their verdicts, and the result's outcome is `interrupted`.
   */
  signal?: AbortSignal;
}
