/** Sessions (`X-Mock-Session`): each seeded from the fixtures on first use; named ones evicted LRU first. */
import { FaultPlan } from './faults.js';
import type { FixtureSet } from './fixtures.js';
import { OrderStore } from './order-store.js';
import { RequestLog } from './request-log.js';

export const DEFAULT_SESSION = 'default';
/** The longest `X-Mock-Session` name accepted (longer is a 400 `invalid_session`). */
export const MAX_SESSION_NAME = 128;

export interface Session {
  readonly name: string;
  readonly orders: OrderStore;
  readonly log: RequestLog;
  readonly faults: FaultPlan;
}

export const DEFAULT_LIMITS = {
  /** Named sessions kept at once, besides the default one. */
  maxSessions: 100,
  /** Requests each session's log keeps. */
  logSize: 200,
};
export type SessionLimits = typeof DEFAULT_LIMITS;

export class Sessions {
  #default!: Session;
  /** The default session with the keyless ring as its log. */
  #keylessView!: Session;
  /** Named sessions, least recently used first (a Map keeps insertion order). */
  readonly #named = new Map<string, Session>();

  constructor(
    public fixtures: FixtureSet,
    private readonly limits: SessionLimits = DEFAULT_LIMITS,
  ) {
    this.#freshDefault();
  }

  /** The named sessions alive now, least recently used first; reading them touches none. */
  names(): string[] {
    return [...this.#named.keys()];
  }

  get(name: string | undefined): Session {
    if (name === undefined || name === DEFAULT_SESSION) return this.#default;
    const session = this.#named.get(name) ?? this.#create(name);
    this.#named.delete(name); // set again below, it becomes the most recently used
    if (this.#named.size >= this.limits.maxSessions) {
      this.#named.delete(this.#named.keys().next().value as string);
    }
    this.#named.set(name, session);
    return session;
  }

  reset(name: string | undefined): Session {
    if (name === undefined || name === DEFAULT_SESSION) return this.#freshDefault();
    this.#named.delete(name);
    return this.get(name);
  }

  /** The session a header names if it exists, untouched; the default's as keyless requests log into it. */
  peek(name: string | undefined): Session | undefined {
    return name === undefined || name === DEFAULT_SESSION ? this.#keylessView : this.#named.get(name);
  }

  /** Puts every session back to the fixtures (new ones, when given: `--watch`) and forgets named ones. */
  resetAll(fixtures = this.fixtures): void {
    this.fixtures = fixtures;
    this.#named.clear();
    this.#freshDefault();
  }

  #freshDefault(): Session {
    const session = this.#create(DEFAULT_SESSION, Math.max(1, Math.floor(this.limits.logSize / 4)));
    this.#default = session;
    this.#keylessView = { ...session, log: session.log.keyless ?? session.log };
    return session;
  }

  #create(name: string, keyless = 0): Session {
    return {
      name,
      orders: new OrderStore(this.fixtures.orders),
      log: new RequestLog(this.limits.logSize, keyless),
      faults: new FaultPlan(),
    };
  }
}
