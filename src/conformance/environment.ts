/**
 * Whether the suite is the target's only client (D16). A change between two of its list reads with no write
 * of its own in between, to an order no request of the suite named, was made by someone else; once one is
 * seen, the run is judged in shared mode. `--sole-client` keeps the strict reading, `--shared` the lenient one.
 */
import type { Contract } from '../contract/index.js';
import type { Exchange } from '../judge/exchange.js';
import { differences, type OrderList } from '../judge/observer.js';
import { pathParameterValues } from '../judge/rules.js';
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

/**
 * The orders a cancel path could name, exactly or under any lenient reading (D19): `7.5` names 7 for a
 * parseInt parser, so a change to order 7 after it is the suite's to judge.
 *
 * @example namedBy(contract, '/store/orders/7.5') // ['7', '8', '75', …]
 */
export function namedBy(contract: Contract, path: string): string[] {
  const [segment] = pathParameterValues(contract.operation('cancelOrder'), path).values();
  if (segment === undefined) return [];
  try {
    return [...new Set(lenientReadings(decodeURIComponent(segment)).map(String))];
  } catch {
    return [];
  }
}

/** What the run has seen of other clients, and how it judges because of it. */
export class EnvironmentWatch {
  /** Every order a request of the suite named, exactly or under a lenient reading. */
  private readonly named = new Set<string>();
  /** Requests sent that may change orders (anything but GET and HEAD). */
  private writes = 0;
  /** The writes sent when the last list was read. */
  private lastListWrites: number | null = null;
  private counted = 0;
  readonly changes: ForeignChange[] = [];
  /** The first change seen, for the report's reason. */
  private firstSeen: ForeignChange | null = null;

  constructor(
    readonly mode: EnvironmentMode,
    private readonly contract: Contract,
  ) {}

  /** Records a request as it is sent; returns the count of writes so far, for {@link listRead}. */
  sent(method: string, path: string): number {
    for (const id of namedBy(this.contract, path)) this.named.add(id);
    if (method !== 'GET' && method !== 'HEAD') this.writes += 1;
    return this.writes;
  }

  /**
   * A list the suite read, with the one before it (the observer's). With no write of the suite since that
   * one (`writesAtSend`: the count when this read was sent), a change to an order it never named is another client's.
   */
  listRead(before: OrderList | null, after: OrderList, writesAtSend: number, exchange: Exchange): void {
    const quiet = this.lastListWrites === writesAtSend && this.writes === writesAtSend;
    if (quiet && before !== null) {
      for (const change of differences(before, after, this.named)) {
        this.record({ ...change, exchange, when: 'between' });
      }
    }
    this.lastListWrites = this.writes;
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

  /** Whether another client was seen at work (in the default mode, only by a change between two list reads). */
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
