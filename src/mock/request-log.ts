/**
 * The recent-request log behind `GET /__mock/requests`: a ring buffer, so memory stays flat however long
 * the mock runs.
 */

export interface LoggedRequest {
  /** ISO 8601 time the request arrived. */
  time: string;
  method: string;
  /** The request path with its query, cut to 256 characters. */
  path: string;
  status: number;
  durationMs: number;
}

const MAX_PATH = 256;

export class RequestLog {
  readonly capacity: number;
  // Times stay numbers until someone reads the log: formatting is off the request path.
  readonly #entries: Array<(Omit<LoggedRequest, 'time'> & { time: number }) | undefined>;
  #next = 0;
  #count = 0;

  constructor(capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new Error(`log capacity must be ≥ 1, got ${capacity}`);
    this.capacity = capacity;
    this.#entries = new Array(capacity);
  }

  add(startedAt: number, method: string, path: string, status: number, durationMs: number): void {
    this.#entries[this.#next] = {
      time: startedAt,
      method: method.slice(0, 32),
      path: path.length > MAX_PATH ? `${path.slice(0, MAX_PATH - 3)}...` : path,
      status,
      durationMs: Math.round(durationMs * 1000) / 1000,
    };
    this.#next = (this.#next + 1) % this.capacity;
    this.#count = Math.min(this.#count + 1, this.capacity);
  }

  /** The entries, oldest first. */
  entries(): LoggedRequest[] {
    const out: LoggedRequest[] = [];
    const start = this.#count < this.capacity ? 0 : this.#next;
    for (let i = 0; i < this.#count; i++) {
      const entry = this.#entries[(start + i) % this.capacity];
      if (entry) out.push({ ...entry, time: new Date(entry.time).toISOString() });
    }
    return out;
  }
}
