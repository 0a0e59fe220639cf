/** The recent requests of `GET /__mock/requests`: a ring, and the default session's keyless ring apart. */

export interface LoggedRequest {
  /** ISO 8601 time the request arrived. */
  time: string;
  method: string;
  /** The request path with its query, cut to 256 characters. */
  path: string;
  status: number;
  durationMs: number;
  /** Whether the request carried a valid key; `false` entries live in the smaller keyless ring. */
  authenticated: boolean;
  /** The Error's `code` when the answer was one (`order_not_found`, `simulated_fault`, …). */
  code?: string;
}

/** The time stays a number until someone reads the log: formatting is off the request path. */
type Stored = Omit<LoggedRequest, 'time'> & { time: number; order: number };

const MAX_PATH = 256;

/** Arrival order across both rings of a log, for merging them on read. */
let arrivals = 0;

export class RequestLog {
  /** The ring of requests without a valid key, so anyone's 401s never push a keyed entry out. */
  readonly keyless: RequestLog | undefined;
  readonly #entries: Stored[] = [];
  #next = 0;

  constructor(
    readonly capacity: number,
    keylessCapacity = 0,
    private readonly authenticated = true,
  ) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new Error(`log capacity must be ≥ 1, got ${capacity}`);
    this.keyless = keylessCapacity > 0 ? new RequestLog(keylessCapacity, 0, false) : undefined;
  }

  add(startedAt: number, method: string, path: string, status: number, durationMs: number, code?: string) {
    this.#entries[this.#next] = {
      time: startedAt,
      method: method.slice(0, 32),
      path: path.length > MAX_PATH ? `${path.slice(0, MAX_PATH - 3)}...` : path,
      status,
      durationMs: Math.round(durationMs * 1000) / 1000,
      authenticated: this.authenticated,
      order: arrivals++,
      code: code?.slice(0, 64),
    };
    this.#next = (this.#next + 1) % this.capacity;
  }

  entries(): LoggedRequest[] {
    const all = [...this.#entries, ...(this.keyless ? this.keyless.#entries : [])].sort(
      (a, b) => a.order - b.order,
    );
    return all.map(({ order: _order, time, ...entry }) => ({ time: new Date(time).toISOString(), ...entry }));
  }
}
