/**
 * Whether the suite is the target's only client (D16). A staging server has other clients: a job that ships
 * orders, testers, other runs. Their changes must not be blamed on the suite's own requests. The suite reads
 * the list twice before the checks and once before every cancel; a change between two of its list reads
 * with no write of its own in between, to an order no request of the suite named, was made by someone else.
 * Once it has seen one, the run is judged in shared mode: a change to an order no request of a step named
 * is that other client's, and a warning; a change to an order a request named is judged in full.
 * `--sole-client` keeps the strict reading whatever is seen; `--shared` takes the lenient one from the start.
 */
import type { ListSnapshot } from '../judge/cancel-effects.js';
import type { Exchange } from '../judge/exchange.js';
import type { EnvironmentReport } from '../judge/types.js';
import { lenientReadings } from './checks/malformed-ids.js';

/** How the run judges changes no request of its own explains: by a flag, or by what it sees. */
export type EnvironmentMode = 'auto' | 'shared' | 'sole-client';

/** The changes kept for the report, each with the list read that showed it; the rest are only counted. */
export const MAX_CHANGES_KEPT = 50;

/** One change no request of the suite explains. */
export interface ForeignChange {
  orderId: string;
  /** What happened, in words: `order 24 changed (was …, now …)`. */
  what: string;
  /** The list read that showed it. */
  exchange: Exchange;
  /** `between`: between two list reads with no write of the suite in between (proof of another client);
   * `during`: during a cancel step of the suite, to an order the step did not name (shared mode). */
  when: 'between' | 'during';
}

const CANCEL_PATH = /^\/store\/orders\/([^/?]+)/;

/**
 * The orders a path segment could name, exactly or under any lenient reading (D19): `7.5` names 7 for a
 * parseInt parser, so a change to order 7 after it is the suite's to judge.
 *
 * @example namedBy('/store/orders/7.5') // ['7', '8', '75', …]
 */
export function namedBy(path: string): string[] {
  const segment = CANCEL_PATH.exec(path)?.[1];
  if (segment === undefined) return [];
  let raw: string;
  try {
    raw = decodeURIComponent(segment);
  } catch {
    return [];
  }
  return [...new Set(lenientReadings(raw).map(String))];
}

/**
 * The orders that differ between two lists, leaving out `ignore`, each described.
 *
 * @example differences(new Map([['1', '{"id":1}']]), new Map(), new Set()) // [{ orderId: '1', what: 'order 1 left the list' }]
 */
export function differences(
  before: ListSnapshot,
  after: ListSnapshot,
  ignore: ReadonlySet<string>,
): Array<{ orderId: string; what: string }> {
  const found: Array<{ orderId: string; what: string }> = [];
  for (const [id, was] of before) {
    if (ignore.has(id)) continue;
    const now = after.get(id);
    if (now === undefined) found.push({ orderId: id, what: `order ${id} left the list` });
    else if (now !== was) found.push({ orderId: id, what: `order ${id} changed (was ${was}, now ${now})` });
  }
  for (const [id, now] of after) {
    if (!before.has(id) && !ignore.has(id))
      found.push({ orderId: id, what: `order ${id} appeared (${now})` });
  }
  return found;
}

/** What the run has seen of other clients, and how it judges because of it. */
export class EnvironmentWatch {
  /** Every order a request of the suite named, exactly or under a lenient reading. */
  private readonly named = new Set<string>();
  /** Requests sent that may change orders (anything but GET and HEAD). */
  private writes = 0;
  private lastList: { snapshot: ListSnapshot; writes: number } | null = null;
  private counted = 0;
  readonly changes: ForeignChange[] = [];
  /** The first change seen, for the report's reason. */
  private firstSeen: ForeignChange | null = null;

  constructor(readonly mode: EnvironmentMode) {}

  /** Records a request as it is sent; returns the count of writes so far, for {@link listRead}. */
  sent(method: string, path: string): number {
    for (const id of namedBy(path)) this.named.add(id);
    if (method !== 'GET' && method !== 'HEAD') this.writes += 1;
    return this.writes;
  }

  /**
   * A list the suite read. When no write of the suite was sent since its previous list read (`writesAtSend`
   * is the count when this read was sent), every difference to an order it never named is another client's.
   */
  listRead(snapshot: ListSnapshot, writesAtSend: number, exchange: Exchange): void {
    const quiet =
      this.lastList !== null && this.lastList.writes === writesAtSend && this.writes === writesAtSend;
    if (quiet && this.lastList !== null) {
      for (const change of differences(this.lastList.snapshot, snapshot, this.named)) {
        this.record({ ...change, exchange, when: 'between' });
      }
    }
    this.lastList = { snapshot, writes: this.writes };
  }

  /** A change during a step of the suite to an order the step did not name, set aside in shared mode. */
  during(orderId: string, what: string, exchange: Exchange): void {
    this.record({ orderId, what, exchange, when: 'during' });
  }

  private record(change: ForeignChange): void {
    this.counted += 1;
    this.firstSeen ??= change;
    if (this.changes.length < MAX_CHANGES_KEPT) this.changes.push(change);
  }

  /**
   * Whether another client was seen at work. In the default mode only a change between two list reads can
   * make it so (a change during a step is the step's until then); with `--shared` a change during a step to
   * an order it did not name counts too.
   */
  get live(): boolean {
    return this.counted > 0;
  }

  /** Whether a change to an order no request of a step named is a warning (shared) or the step's failure. */
  get shared(): boolean {
    return this.mode === 'shared' || (this.mode === 'auto' && this.live);
  }

  /** How many changes no request of the suite explains. */
  get changesByOthers(): number {
    return this.counted;
  }

  report(): EnvironmentReport {
    const mode = this.shared ? 'shared' : 'sole-client';
    const setBy = this.mode !== 'auto' ? 'flag' : this.live ? 'detected' : 'default';
    const first = this.firstSeen;
    const seen =
      first === null
        ? 'no change by another client was seen'
        : `${first.what} ${first.when === 'between' ? 'between two reads of the list with no request of the suite in between' : 'during a request of the suite that did not name it'}`;
    const reason =
      this.mode === 'shared'
        ? `--shared: other clients may change orders during the run; ${seen}`
        : this.mode === 'sole-client'
          ? `--sole-client: the suite is the only client, so every change it did not make is a failure; ${seen}`
          : seen;
    return { live: this.live, reason, changesByOthers: this.counted, mode, setBy };
  }
}
