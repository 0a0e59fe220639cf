// D16: a change between two quiet list reads to an order the suite never named is another client's.
import type { Contract } from '../contract/index.js';
import type { Exchange } from '../judge/exchange.js';
import { differences, type OrderList } from '../judge/observer.js';
import { pathParameterValues } from '../judge/rules.js';
import type { EnvironmentReport } from '../judge/types.js';
import { lenientReadings } from './checks/malformed-ids.js';

export type EnvironmentMode = 'auto' | 'shared' | 'sole-client';

const MAX_CHANGES_KEPT = 50;
const FLAG_REASON: Record<EnvironmentMode, string> = {
  auto: '',
  shared: '--shared: other clients may change orders during the run; ',
  'sole-client':
    '--sole-client: the suite is the only client, so every change it did not make is a failure; ',
};

/** The orders a cancel path could name under any lenient reading (D19): `7.5` names 7 for parseInt. */
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
  private readonly named = new Set<string>();
  /** The suite's requests that may change orders (not GET or HEAD), and their count at the last list read. */
  private writes = 0;
  private lastListWrites: number | null = null;
  changesByOthers = 0;
  readonly changes: { what: string; exchange: Exchange; when: 'between' | 'during' }[] = [];

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

  /** A list read and the one before it: with no write of the suite between them, a change is another client's. */
  listRead(before: OrderList | null, after: OrderList, writesAtSend: number, exchange: Exchange): void {
    const quiet = this.lastListWrites === writesAtSend && this.writes === writesAtSend;
    if (quiet && before !== null) {
      for (const { what } of differences(before, after, this.named)) this.record(what, exchange, 'between');
    }
    this.lastListWrites = this.writes;
  }

  /** A change no request of the suite explains: `between` two quiet list reads, or `during` a step. */
  record(what: string, exchange: Exchange, when: 'between' | 'during'): void {
    this.changesByOthers += 1;
    if (this.changes.length < MAX_CHANGES_KEPT) this.changes.push({ what, exchange, when });
  }

  /** Whether a change to an order no request of a step named is a warning (shared) or the step's failure. */
  get shared(): boolean {
    return this.mode === 'shared' || (this.mode === 'auto' && this.changesByOthers > 0);
  }

  report(): EnvironmentReport {
    const live = this.changesByOthers > 0;
    const mode = this.shared ? 'shared' : 'sole-client';
    const setBy = this.mode !== 'auto' ? 'flag' : live ? 'detected' : 'default';
    const first = this.changes[0];
    const seen =
      first === undefined
        ? 'no change by another client was seen'
        : `${first.what} ${first.when === 'between' ? 'between two reads of the list with no request of the suite in between' : 'during a request of the suite that did not name it'}`;
    const reason = `${FLAG_REASON[this.mode]}${seen}`;
    return { live, reason, changesByOthers: this.changesByOthers, mode, setBy };
  }
}
