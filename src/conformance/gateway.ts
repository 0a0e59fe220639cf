// D22: 429 and 503 are retried within a run-wide budget honouring Retry-After. Not undici's RetryAgent: it
// hides the retried statuses, has no run-wide budget or pace, and cannot wrap a caller's own `fetch`.
import { setTimeout as sleep } from 'node:timers/promises';
import type { HttpOutcome, HttpRequest } from '../judge/http-outcome.js';
import type { RetriedRequest, RetryReport, Unreachable } from '../judge/types.js';
import { type HttpClientOptions, send } from './http-client.js';

export type RetryPolicy = Omit<RetryReport, 'waitedMs'>;

export const DEFAULT_WAIT_MS = 1_000;
/** D22: the most requests per second once a gateway answered 429. */
const THROTTLED_RATE = 50;
const MAX_RETRIES_LISTED = 100;

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  budgetMs: 30_000,
  maxRetriesPerRequest: 5,
  maxWaitMs: 10_000,
  rateLimit: null,
};

/** The wait a `Retry-After` asks for, in ms: seconds or an HTTP-date (RFC 9110 §10.2.3), else `null`. */
export function retryAfterMs(value: string | undefined, now: number): number | null {
  const text = value?.trim() ?? '';
  if (/^[0-9]+$/.test(text)) return Number(text) * 1000;
  // Date.parse alone would take "1" or "tomorrow"-like text.
  if (!/^[A-Za-z]{3}, .* GMT$/.test(text)) return null;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** Parses `--retry-budget`: `500ms`, `30s`, `2m`, or a bare number of seconds; else `null`. */
export function parseDuration(text: string): number | null {
  const match = /^([0-9]+(?:\.[0-9]+)?)(ms|s|m)?$/.exec(text.trim());
  if (!match) return null;
  const unit = match[2] ?? 's';
  const ms = Number(match[1]) * (unit === 'ms' ? 1 : unit === 's' ? 1000 : 60_000);
  return Number.isFinite(ms) ? Math.round(ms) : null;
}

/** One line that says how the run treats a gateway, printed before the first request. */
export function describePolicy(policy: RetryPolicy): string {
  const pace =
    policy.rateLimit === null ? 'no pace of its own' : `at most ${policy.rateLimit} requests per second`;
  return `Gateway answers (D22): 429 and 503 are retried honouring Retry-After, waiting at most ${seconds(policy.budgetMs)} in all (--retry-budget) while no answer gets through and ${seconds(policy.maxWaitMs)} at a time, at most ${policy.maxRetriesPerRequest} retries per request; the suite sends ${pace} (--rate-limit), and after a 429 at most ${THROTTLED_RATE} per second`;
}

const seconds = (ms: number) => `${ms % 1000 === 0 ? ms / 1000 : (ms / 1000).toFixed(1)} s`;

/** Sends the suite's requests with its pace and retries; one per run, shared by concurrent requests. */
export class Gateway {
  readonly retries: RetriedRequest[] = [];
  retriesNotListed = 0;
  waitedMs = 0;
  /** Once set, no later request is sent, and the run ends with it. */
  notReady: Unreachable | null = null;
  private nextStart = 0;
  /** D22: the budget bounds the wait since an answer last got through, not the run's total wait. */
  private stalledMs = 0;
  private throttled = false;

  constructor(
    readonly policy: RetryPolicy,
    private readonly clock = { now: Date.now, sleep: (ms: number): Promise<void> => sleep(ms) },
  ) {}

  /** Sends one request, retrying 429 and 503 within the policy. Never throws. */
  async send(request: HttpRequest, options: HttpClientOptions): Promise<HttpOutcome> {
    const statuses: number[] = [];
    for (;;) {
      if (this.notReady)
        return { ok: false, error: { kind: 'other', message: 'not sent: the environment is not ready' } };
      await this.pace();
      const outcome = await send(request, options);
      const status = outcome.ok ? outcome.value.status : null;
      if (status !== 429 && status !== 503) {
        if (status !== null) this.stalledMs = 0;
        if (statuses.length > 0)
          this.record(request, statuses.length + 1, status === null ? statuses : [...statuses, status]);
        return outcome;
      }
      statuses.push(status);
      if (status === 429) this.throttled = true;
      const header = outcome.ok ? outcome.value.headers['retry-after'] : undefined;
      const asked = retryAfterMs(header, this.clock.now());
      const wait = Math.min(asked ?? DEFAULT_WAIT_MS, this.policy.maxWaitMs);
      const { maxRetriesPerRequest, budgetMs } = this.policy;
      const stop =
        statuses.length > maxRetriesPerRequest
          ? `it was still answered ${status} after ${maxRetriesPerRequest} retries`
          : this.stalledMs + wait > budgetMs
            ? `waiting ${seconds(wait)} more would overrun the retry budget (${seconds(budgetMs)}, ${seconds(this.stalledMs)} spent since an answer last got through)`
            : null;
      if (stop !== null) {
        this.record(request, statuses.length, statuses);
        this.notReady = {
          kind: 'not-ready',
          url: request.url,
          message: `environment not ready: ${request.method} ${request.url} was answered ${statuses.join(', ')}: ${stop}`,
          hint: 'a gateway or load balancer is throttling (429) or has no server to forward to (503); run again when the environment is up, or allow more waiting with --retry-budget',
        };
        return outcome;
      }
      this.waitedMs += wait;
      this.stalledMs += wait;
      await this.clock.sleep(wait);
    }
  }

  /** Starts are at least 1/N s apart under `--rate-limit`, and after a 429. */
  private async pace(): Promise<void> {
    const rates = [this.policy.rateLimit, this.throttled ? THROTTLED_RATE : null].filter((r) => r !== null);
    if (rates.length === 0) return;
    const now = this.clock.now();
    const start = Math.max(now, this.nextStart);
    this.nextStart = start + 1000 / Math.min(...rates);
    if (start > now) await this.clock.sleep(start - now);
  }

  private record({ method, url }: HttpRequest, attempts: number, statuses: number[]): void {
    if (this.retries.length < MAX_RETRIES_LISTED) this.retries.push({ method, url, attempts, statuses });
    else this.retriesNotListed += 1;
  }
}
