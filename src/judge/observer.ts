/**
 * The rules that span requests (§3, §4.1, §5, D1, D2, D16), judged from a sequence of exchanges, whoever
 * obtained them: a scripted client or forwarded traffic feed the same observer and get the same findings.
 * What a cancel's answer means is read from the document's `x-petstore-order-states` table, the one the
 * mock follows: the state an answer leaves the order in (204 → cancelled, 409 → still shipped), whether
 * that state is listed, and which answers that state may give next. A change to the table changes the
 * verdicts with it.
 *
 * Each scope (one API key, one `X-Mock-Session`) has its own last list and its own cancels, so several
 * users of one server do not mix. The reading a server follows for cancelled orders (D16: dropped from the
 * list, or kept listed) is the server's own, so it is learnt across scopes. Ids are compared exactly, as
 * decimal text of the lossless parse (D8).
 */

import { type Contract, parseExactJson, stringifyExactJson } from '../contract/index.js';
import { listedOrders, sameInteger } from './cancel-effects.js';
import { matchOperation } from './exchange.js';
import type { Level } from './types.js';

export interface StateFinding {
  rule: string;
  citation: string;
  level: Level;
  message: string;
  expected: string;
}

export interface ObserverOptions {
  /**
   * The observer sees every request the server gets (D20 `--sole-client`): an order that vanishes or
   * changes with no request naming it is then a failure, not a warning that another client may have
   * done it.
   */
  soleClient?: boolean;
  /** The most estimated memory for remembered lists; default {@link MAX_LIST_BYTES}. */
  maxListBytes?: number;
}

/** One exchange as the cross-request rules need it. */
export interface SeenExchange {
  method: string;
  /** The path below the base URL, as sent (percent-encoded, query included). */
  path: string;
  /** `null` when no answer came. */
  status: number | null;
  /** The answer's response headers (lower-case names). */
  headers: Readonly<Record<string, string | undefined>>;
  /** The body as text, `null` when it could not be read whole. */
  text: string | null;
  /** Whether the request carried a bearer token (§5): only then do the state and key rules apply. */
  bearer: boolean;
  /** The auth scheme as sent with the token (`Bearer`, `bearer`…): D7 reads it case-insensitively. */
  scheme?: string;
  /**
   * When the request was sent and when its answer ended, in milliseconds on one clock. Exchanges whose
   * spans overlap were in flight together (a double-clicked cancel), and {@link Observer.order} reads
   * them in an order the server may have served them in. Absent: one instant, after what came before.
   */
  startedAt?: number;
  endedAt?: number;
}

/** Whether two exchanges were in flight at one moment; one without times overlaps nothing. */
export function overlapping(a: SeenExchange, b: SeenExchange): boolean {
  if (a.startedAt === undefined || a.endedAt === undefined) return false;
  if (b.startedAt === undefined || b.endedAt === undefined) return false;
  return a.startedAt < b.endedAt && b.startedAt < a.endedAt;
}

/**
 * D7, RFC 9110 §11.1: a key refused under a lower-case (or otherwise cased) `bearer` and accepted under
 * `Bearer`. A warning: the interface shows `Bearer`, and clients that send it work.
 */
export function schemeCaseFinding(scheme: string, refusedAt: number, acceptedAt: number): StateFinding {
  return {
    rule: 'state.scheme-case',
    citation: 'D7, RFC 9110 §11.1',
    level: 'warning',
    message: `the key was refused (401) under the scheme ${JSON.stringify(scheme)} (exchange #${refusedAt}) and accepted under "Bearer" (exchange #${acceptedAt})`,
    expected: `the scheme name read case-insensitively (RFC 9110 §11.1, D7): "${scheme} <key>" accepted like "Bearer <key>"`,
  };
}

/** Whose exchange it is: the key (for the key rule) and the key with its session (for the order rules). */
export interface ObserverScope {
  key: string;
  orders: string;
}

/** One listed order: its exact JSON text (to see a change) and its `complete` flag. */
interface Listed {
  text: string;
  complete: unknown;
}

/** What an answer to a cancel told about its order, and which exchange told it. */
interface Known {
  status: number;
  /** The states the order may be in, by the table. */
  states: readonly string[];
  exchange: number;
}

interface Scope {
  /** The last list seen, by order id, and the exchange that read it. */
  list: Map<string, Listed> | null;
  listText: string | null;
  listExchange: number;
  /** Cancels since that list: order id → the last status answered. */
  touched: Map<string, number>;
  /** What cancels answered: the first answer that placed the order in a state stays the fact. */
  known: Map<string, Known>;
  /** Orders cancelled with a state-changing answer that a later list no longer showed, by exchange. */
  gone: Map<string, number>;
}

interface KeyAuth {
  /** By operation: the first exchange that refused (401) and the first that accepted the key. */
  byOperation: Map<string, { refused: number | null; accepted: number | null }>;
  flagged: boolean;
  /** D7: the first 401 to the key under a scheme spelled other than `Bearer`, and whether it was flagged. */
  caseRefused: { scheme: string; exchange: number } | null;
  /** The scheme spellings the key was accepted under, with the first exchange of `Bearer`. */
  acceptedSchemes: Set<string>;
  acceptedExact: number | null;
  caseFlagged: boolean;
}

/** How many scopes, keys and ids are remembered; the oldest go first. */
export const MAX_SCOPES = 1_000;
export const MAX_CANCELLED_PER_SCOPE = 10_000;
/**
 * The most memory the remembered lists of every scope may take together, estimated as 8 bytes per
 * character of a list's text (its text plus the parsed orders: a 951 KB list measured about 8.5 MB). Past
 * it the oldest scopes are forgotten, and the report says how many: a proxy given a new `X-Mock-Session` per
 * request must not run out of memory.
 */
export const MAX_LIST_BYTES = 256 * 1024 * 1024;
const BYTES_PER_LIST_CHAR = 8;

/** What the server has shown about cancelled orders (D16), counted over every scope. */
export interface Reading {
  /** Orders cancelled with 204 that the next list no longer showed. */
  dropped: number;
  /** Orders cancelled with 204 that the next list still showed (changed or not). */
  keptListed: number;
  /** Scopes whose remembered list was forgotten to stay within {@link MAX_LIST_BYTES}. */
  forgottenScopes: number;
}

/** The cancel transitions of the document's state table, as the observer asks them. */
export interface CancelTable {
  /** Statuses that move an order to another state (204). */
  moves: ReadonlySet<number>;
  /** The states an answer with this status leaves the order in (204 → cancelled, 409 → shipped). */
  statesAfter(status: number): readonly string[];
  /** The states whose cancel answers this status. */
  statesBefore(status: number): readonly string[];
  /** The statuses a cancel of an order in this state answers. */
  answers(state: string): number[];
  /** Whether a cancel of an order in one of `states` may answer `status` (only moves are judged). */
  allows(states: readonly string[], status: number): boolean;
  listed(state: string): boolean;
  /** The `complete` value of the state, `undefined` where the table gives none. */
  complete(state: string): boolean | undefined;
  /** The status a cancel of an order in a listed, complete state answers (409): a refusal. */
  refusal: number | null;
}

/**
 * The cancel rows of `x-petstore-order-states`.
 *
 * @example cancelTable(contract).statesAfter(409) // ['shipped']
 */
export function cancelTable(contract: Contract): CancelTable {
  const { states, transitions } = contract.orderStates;
  const rows = transitions.filter((t) => t.operation === 'cancelOrder');
  const unique = (values: string[]) => [...new Set(values)];
  const refusal = rows.find((t) => t.from === t.to && states[t.from]?.listed === true);
  const moves = new Set(rows.filter((t) => t.from !== t.to).map((t) => t.status));
  return {
    moves,
    statesAfter: (status) => unique(rows.filter((t) => t.status === status).map((t) => t.to)),
    statesBefore: (status) => unique(rows.filter((t) => t.status === status).map((t) => t.from)),
    // Only a state-changing answer is judged: D2 lets a cancelled order be refused with 404 or 409.
    allows: (from, status) =>
      !moves.has(status) || rows.some((t) => from.includes(t.from) && t.status === status),
    answers: (state) => rows.filter((t) => t.from === state).map((t) => t.status),
    listed: (state) => states[state]?.listed === true,
    complete: (state) => states[state]?.complete,
    refusal: refusal?.status ?? null,
  };
}

/** The orders of a list body by id (read with {@link listedOrders}), `null` when not a list. */
function readList(text: string): Map<string, Listed> | null {
  const parsed = parseExactJson(text);
  const listed = parsed.ok ? listedOrders(parsed.value) : null;
  if (listed === null) return null;
  const orders = new Map<string, Listed>();
  for (const [id, item] of listed)
    orders.set(id, { text: stringifyExactJson(item), complete: item.complete });
  return orders;
}

const list = (ids: readonly string[]): string =>
  ids.length === 1 ? `order ${ids[0]}` : `orders ${ids.slice(0, -1).join(', ')} and ${ids.at(-1)}`;

/** Drops the oldest entry of a map at its bound. */
function bounded<K, V>(map: Map<K, V>, max: number): void {
  if (map.size < max) return;
  const oldest = map.keys().next().value;
  if (oldest !== undefined) map.delete(oldest);
}

/**
 * Remembers each scope's last list, cancels and key answers, and says which cross-request rule an answer
 * breaks.
 *
 * @example
 * const observer = new Observer(contract);
 * const scope = { key: 'key #1', orders: 'key #1' };
 * observer.observe(scope, { method: 'GET', path: '/store/orders', status: 200, headers: {}, text: '[{"id":7}]', bearer: true }, 1);
 * observer.cancel('key #1', '7', 204, 2);
 * observer.cancel('key #1', '7', 204, 3); // [{ rule: 'state.second-204', level: 'failure', … }]
 */
export class Observer {
  private readonly scopes = new Map<string, Scope>();
  private readonly keys = new Map<string, KeyAuth>();
  /** The last exchange that cancelled each order with a state-changing answer, in any scope. */
  private readonly movedAnywhere = new Map<string, number>();
  private readonly table: CancelTable;
  private readonly orderIdParameter;
  readonly reading: Reading = { dropped: 0, keptListed: 0, forgottenScopes: 0 };
  readonly soleClient: boolean;
  private readonly maxListBytes: number;
  /** The estimated memory of every scope's remembered list (see MAX_LIST_BYTES). */
  private listBytes = 0;

  constructor(
    private readonly contract: Contract,
    options: ObserverOptions = {},
  ) {
    this.table = cancelTable(contract);
    this.soleClient = options.soleClient === true;
    this.maxListBytes = options.maxListBytes ?? MAX_LIST_BYTES;
    this.orderIdParameter = contract
      .operation('cancelOrder')
      .parameters.find((p) => p.name === 'orderId' && p.in === 'path');
  }

  /**
   * Exchanges that may have been in flight together, in the order the rules should read them: by the end
   * of their answers, except that a cancel that moved an order (204) goes before each cancel of the same
   * order that overlapped it and was refused (404, 409). The refusal was the server telling the loser of a
   * double click that the winner got there first, whichever answer arrived first. Two overlapping 204s
   * stay two 204s: the second is still a second cancel (D2).
   *
   * @example observer.order([{ seen: loser409 }, { seen: winner204 }]) // [winner, loser]
   */
  order<T extends { seen: SeenExchange }>(entries: readonly T[]): T[] {
    const byEnd = [...entries].sort((a, b) => (a.seen.endedAt ?? 0) - (b.seen.endedAt ?? 0));
    const cancelOf = (seen: SeenExchange) =>
      seen.bearer &&
      seen.status !== null &&
      matchOperation(this.contract, seen.method, seen.path) === 'cancelOrder'
        ? this.orderIdOf(seen.path)
        : null;
    const out: T[] = [];
    for (const entry of byEnd) {
      const id = cancelOf(entry.seen);
      const moved = id !== null && this.table.moves.has(entry.seen.status as number);
      const at = moved
        ? out.findIndex(
            (e) =>
              cancelOf(e.seen) === id &&
              !this.table.moves.has(e.seen.status as number) &&
              overlapping(e.seen, entry.seen),
          )
        : -1;
      if (at === -1) out.push(entry);
      else out.splice(at, 0, entry);
    }
    return out;
  }

  /** Every cross-request rule one exchange may break; the exchange number names it in messages. */
  observe(scope: ObserverScope, seen: SeenExchange, exchange: number): StateFinding[] {
    if (!seen.bearer || seen.status === null) return [];
    const operationId = matchOperation(this.contract, seen.method, seen.path);
    if (operationId === null) return [];
    const found = this.auth(scope.key, operationId, seen, exchange);
    if (operationId === 'listOrders' && seen.status === 200 && seen.text !== null) {
      found.push(...this.list(scope.orders, seen.text, exchange));
    } else if (operationId === 'cancelOrder') {
      // D9: a success for `0x7` or `07` is a cancel of order 7, the same integer in another notation.
      const moved = this.table.moves.has(seen.status);
      const id = this.orderIdOf(seen.path) ?? (moved ? this.sameIntegerOf(seen.path) : null);
      if (id !== null) found.push(...this.cancel(scope.orders, id, seen.status, exchange));
    }
    return found;
  }

  /** The order a cancel path names, as canonical decimal text; `null` when it is not an int64 (D9). */
  orderIdOf(path: string): string | null {
    const match = /^\/store\/orders\/([^/?]+)(?:\?.*)?$/.exec(path);
    if (!match?.[1] || !this.orderIdParameter) return null;
    let raw: string;
    try {
      raw = decodeURIComponent(match[1]);
    } catch {
      return null;
    }
    const parsed = this.contract.parseParameter(this.orderIdParameter, raw);
    return parsed.ok ? String(parsed.value) : null;
  }

  /** The order a malformed cancel path names in another notation of the same integer (D9), else `null`. */
  private sameIntegerOf(path: string): string | null {
    const segment = /^\/store\/orders\/([^/?]+)/.exec(path)?.[1];
    try {
      return segment === undefined ? null : (sameInteger(decodeURIComponent(segment))?.toString() ?? null);
    } catch {
      return null;
    }
  }

  /** Forgets the oldest scopes (never the one just written) until the remembered lists fit the budget. */
  private forgetOldestBeyondBudget(current: Scope): void {
    for (const [name, scope] of this.scopes) {
      if (this.listBytes <= this.maxListBytes) return;
      if (scope === current) continue;
      this.listBytes -= (scope.listText?.length ?? 0) * BYTES_PER_LIST_CHAR;
      this.scopes.delete(name);
      this.reading.forgottenScopes += 1;
    }
  }

  private scope(name: string): Scope {
    let found = this.scopes.get(name);
    if (!found) {
      if (this.scopes.size >= MAX_SCOPES) {
        const [oldest, scope] = this.scopes.entries().next().value as [string, Scope];
        this.listBytes -= (scope.listText?.length ?? 0) * BYTES_PER_LIST_CHAR;
        this.scopes.delete(oldest);
      }
      found = {
        list: null,
        listText: null,
        listExchange: 0,
        touched: new Map(),
        known: new Map(),
        gone: new Map(),
      };
      this.scopes.set(name, found);
    }
    return found;
  }

  /**
   * §5: one key is either accepted or refused. A key refused with 401 on one operation (and never
   * accepted there) while accepted on another is checked differently per route, whatever the order of
   * the two answers. A key refused everywhere, or refused after it was accepted on the same operation
   * (revoked during the run), is not flagged.
   */
  private auth(key: string, operationId: string, seen: SeenExchange, exchange: number): StateFinding[] {
    let known = this.keys.get(key);
    if (!known) {
      bounded(this.keys, MAX_SCOPES);
      known = {
        byOperation: new Map(),
        flagged: false,
        caseRefused: null,
        acceptedSchemes: new Set(),
        acceptedExact: null,
        caseFlagged: false,
      };
      this.keys.set(key, known);
    }
    const status = seen.status as number;
    const scheme = seen.scheme ?? 'Bearer';
    // A 401 to a scheme spelled other than `Bearer` is D7's question, not a verdict on the key.
    if (status === 401 && scheme !== 'Bearer') {
      known.caseRefused ??= { scheme, exchange };
      return this.schemeCase(known);
    }
    if (this.accepted(operationId, status, seen)) {
      known.acceptedSchemes.add(scheme);
      if (scheme === 'Bearer') known.acceptedExact ??= exchange;
    }
    const found = this.schemeCase(known);
    const entry = known.byOperation.get(operationId) ?? { refused: null, accepted: null };
    known.byOperation.set(operationId, entry);
    if (status === 401) entry.refused ??= exchange;
    else if (this.accepted(operationId, status, seen)) entry.accepted ??= exchange;
    else return found;
    if (known.flagged) return found;
    const refusedOnly = [...known.byOperation].filter(([, e]) => e.refused !== null && e.accepted === null);
    const accepted = [...known.byOperation].filter(([, e]) => e.accepted !== null);
    const [refusedOp, refusedAt] = refusedOnly[0] ?? [];
    const other = accepted.find(([op]) => op !== refusedOp);
    if (refusedOp === undefined || refusedAt === undefined || other === undefined) return found;
    known.flagged = true;
    return [
      ...found,
      {
        rule: 'state.key-inconsistent',
        citation: '§5',
        level: 'failure',
        message: `the same key was refused (401) on ${refusedOp} (exchange #${refusedAt.refused}) and accepted on ${other[0]} (exchange #${other[1].accepted})`,
        expected: 'one key accepted on every operation, or refused on every operation (§5)',
      },
    ];
  }

  /** D7 once per key: refused under one spelling of the scheme that it was never accepted under, and accepted under `Bearer`. */
  private schemeCase(known: KeyAuth): StateFinding[] {
    const refused = known.caseRefused;
    if (known.caseFlagged || refused === null || known.acceptedExact === null) return [];
    if (known.acceptedSchemes.has(refused.scheme)) return [];
    known.caseFlagged = true;
    return [schemeCaseFinding(refused.scheme, refused.exchange, known.acceptedExact)];
  }

  /**
   * Whether an answer shows the key was accepted: a documented status other than 401 and 5xx. A 404 of
   * a deprecated operation without its Deprecation header shows nothing: the path may no longer be
   * routed at all (D10, D11).
   */
  private accepted(operationId: string, status: number, seen: SeenExchange): boolean {
    if (status >= 500 || status === 401) return false;
    const operation = this.contract.operation(operationId);
    if (!operation.statuses.includes(status)) return false;
    return !(operation.deprecated && status === 404 && seen.headers.deprecation === undefined);
  }

  /** A cancel of `id` (a valid int64) answered with `status`. */
  cancel(scopeName: string, id: string, status: number, exchange: number): StateFinding[] {
    const scope = this.scope(scopeName);
    const { table } = this;
    const moved = table.moves.has(status);
    // The first answer stays the fact of the interval (a later refusal is D2's re-cancel, a later 404 of
    // a refused order is that order gone), unless a later one moved the order.
    const before = scope.touched.get(id);
    if (before === undefined || (moved && !table.moves.has(before))) scope.touched.set(id, status);
    if (moved) {
      bounded(this.movedAnywhere, MAX_CANCELLED_PER_SCOPE);
      this.movedAnywhere.delete(id);
      this.movedAnywhere.set(id, exchange);
    }
    const findings: StateFinding[] = [];
    const earlier = scope.known.get(id);
    if (earlier !== undefined && !table.allows(earlier.states, status)) {
      findings.push(this.reversal(id, earlier, status));
    }
    if (earlier === undefined) {
      // What the answer tells: the state it leaves the order in, when that state is one a list shows or
      // one the order reached by this very answer. A 404 names an order unknown or gone: no state.
      const states = table.statesAfter(status).filter((s) => moved || table.listed(s));
      if (states.length > 0) {
        bounded(scope.known, MAX_CANCELLED_PER_SCOPE);
        scope.known.set(id, { status, states, exchange });
      }
    }
    const listed = scope.list?.get(id);
    if (earlier === undefined && listed) findings.push(...this.againstList(id, status, listed));
    return findings;
  }

  /** The finding for an answer the order's known state cannot give (a second 204, a 204 after a 409). */
  private reversal(id: string, earlier: Known, status: number): StateFinding {
    if (this.table.moves.has(earlier.status)) {
      return {
        rule: 'state.second-204',
        citation: '§3, D2',
        level: 'failure',
        message: `order ${id} was already cancelled (${earlier.status} to exchange #${earlier.exchange}); a second cancel answered ${status} again`,
        expected: `404 or ${this.table.refusal ?? 409} for an order already cancelled (D2), never ${status}`,
      };
    }
    return {
      rule: 'state.cancel-after-refusal',
      citation: '§3',
      level: 'failure',
      message: `order ${id} was refused with ${earlier.status} (exchange #${earlier.exchange}: it is ${earlier.states.join(' or ')}), and a later cancel answered ${status}`,
      expected: `${earlier.status} again: a ${earlier.states.join(' or ')} order stays ${earlier.states.join(' or ')} (§3)`,
    };
  }

  /** Warnings for an answer that does not fit how the last list showed the order (D1 lets servers differ). */
  private againstList(id: string, status: number, listed: Listed): StateFinding[] {
    const { table } = this;
    const from = table.statesBefore(status);
    if (from.length === 0) return [];
    const listedFrom = from.filter((s) => table.listed(s));
    if (listedFrom.length === 0) {
      return [
        {
          rule: 'state.404-on-listed',
          citation: '§4.2, §7',
          level: 'warning',
          message: `order ${id} was refused as not found (${status}), but the last list showed it`,
          expected: `a listed order is found: ${[...table.moves].join(' or ')}, or ${table.refusal ?? 409} when it has shipped (another client may have cancelled it since)`,
        },
      ];
    }
    if (typeof listed.complete !== 'boolean') return [];
    if (listedFrom.some((s) => table.complete(s) === listed.complete)) return [];
    if (table.moves.has(status)) {
      return [
        {
          rule: 'state.204-on-complete',
          citation: '§3, D1',
          level: 'warning',
          message: `order ${id} was cancelled (${status}), but the last list showed it with complete: ${listed.complete}`,
          expected: `${table.refusal ?? 409} for a shipped order; complete: true reads as fulfilled, though D1 lets a server differ`,
        },
      ];
    }
    return [
      {
        rule: 'state.409-on-pending',
        citation: '§3, D1',
        level: 'warning',
        message: `order ${id} was refused as shipped (${status}), but the last list showed it with complete: ${listed.complete}`,
        expected: `${[...table.moves].join(' or ')} for a pending order; complete: false reads as pending, though D1 lets a server differ`,
      },
    ];
  }

  /** A 200 answer to the list, with its body. */
  list(scopeName: string, text: string, exchange: number): StateFinding[] {
    const scope = this.scope(scopeName);
    // The same list again with nothing cancelled since: nothing can have vanished, changed or come back.
    if (text === scope.listText && scope.touched.size === 0) return [];
    const now = text === scope.listText ? scope.list : readList(text);
    if (now === null) return [];
    const before = scope.list;
    const touched = scope.touched;
    const since = scope.listExchange;
    this.listBytes += (text.length - (scope.listText?.length ?? 0)) * BYTES_PER_LIST_CHAR;
    scope.list = now;
    scope.listText = text;
    scope.listExchange = exchange;
    this.forgetOldestBeyondBudget(scope);
    scope.touched = new Map();

    const findings: StateFinding[] = this.returned(scope, now);
    if (before === null) return findings;
    const { table } = this;
    const stillListed: string[] = [];
    const unlisted: string[] = [];
    for (const [id, status] of touched) {
      if (!table.moves.has(status)) continue;
      if (!before.has(id)) unlisted.push(id);
      const after = now.get(id);
      if (after === undefined) {
        this.reading.dropped += 1;
        bounded(scope.gone, MAX_CANCELLED_PER_SCOPE);
        scope.gone.set(id, scope.known.get(id)?.exchange ?? exchange);
      } else {
        this.reading.keptListed += 1;
        if (after.text === before.get(id)?.text) stillListed.push(id);
      }
    }
    // Another scope's cancel explains a vanish too: the same server sees every scope's requests.
    const explained = (id: string) => touched.has(id) || (this.movedAnywhere.get(id) ?? 0) > since;
    const vanished = [...before.keys()].filter((id) => !now.has(id) && !explained(id));
    const refusedGone = [...touched]
      .filter(
        ([id, status]) =>
          !table.moves.has(status) &&
          table.statesAfter(status).some((s) => table.listed(s)) &&
          before.has(id) &&
          !now.has(id),
      )
      .map(([id, status]) => [id, status] as const);
    for (const [id, status] of refusedGone) {
      findings.push({
        rule: 'state.refused-then-gone',
        citation: '§3, §4.1',
        level: 'failure',
        message: `order ${id} was refused (${status}: it stays ${table.statesAfter(status).join(' or ')}) and is no longer listed`,
        expected: `order ${id} still listed: a shipped order stays shipped, and the list holds every order`,
      });
    }
    // A 204 for an order the list did not show, while an order nobody cancelled left the list: the list
    // and the cancel disagree about ids (a server that writes or reads them through doubles, D8).
    if (unlisted.length > 0 && vanished.length > 0) {
      findings.push({
        rule: 'state.cancelled-unlisted',
        citation: '§4.1, D8',
        level: 'failure',
        message: `${list(unlisted)} ${unlisted.length === 1 ? 'was' : 'were'} cancelled (${touched.get(unlisted[0] ?? '')}) though the list before did not show ${unlisted.length === 1 ? 'it' : 'them'}, while ${list(vanished)}, which no request cancelled, left the list: the server lists or reads ids inexactly`,
        expected: 'the list shows every order exactly (D8), and a cancel removes the order it names',
      });
      return findings;
    }
    // A cancelled order listed exactly as before breaks D2/D16 on a server seen to drop cancelled orders,
    // and on any server when, in the same interval, an order nobody cancelled vanished instead: the cancel
    // hit the wrong order (a rounded or mis-parsed id).
    if (stillListed.length > 0 && (this.reading.dropped > 0 || vanished.length > 0)) {
      for (const id of stillListed) {
        const why =
          vanished.length > 0
            ? `while ${list(vanished)}, which no request cancelled, vanished: the cancel seems to have hit the wrong order`
            : 'although this server has been seen to drop cancelled orders from its list (D16)';
        findings.push({
          rule: 'state.cancelled-still-listed',
          citation: '§3, D2, D16',
          level: 'failure',
          message: `order ${id} was cancelled (${touched.get(id)}) and is still listed unchanged, ${why}`,
          expected: `order ${id} gone from the list, or shown changed on a server that keeps cancelled orders (D16)`,
        });
      }
    } else if (vanished.length > 0) {
      findings.push({
        rule: 'state.vanished',
        citation: this.soleClient ? '§4.1, D16, D20' : '§4.1',
        level: this.soleClient ? 'failure' : 'warning',
        message: this.soleClient
          ? `${list(vanished)} left the list with no request naming ${vanished.length === 1 ? 'it' : 'them'}, and no other client uses this server`
          : `${list(vanished)} left the list with no cancel seen (another client may have cancelled ${vanished.length === 1 ? 'it' : 'them'})`,
        expected: 'every order listed until it is cancelled',
      });
    }
    const changed = [...before]
      .filter(([id, was]) => !explained(id) && now.has(id) && now.get(id)?.text !== was.text)
      .map(([id]) => id);
    if (changed.length > 0) {
      const them = changed.length === 1 ? 'it' : 'them';
      findings.push({
        rule: 'state.changed',
        citation: this.soleClient ? '§4.1, D16, D20' : '§4.1',
        level: this.soleClient ? 'failure' : 'warning',
        message: this.soleClient
          ? `${list(changed)} changed in the list with no request naming ${them}, and no other client uses this server`
          : `${list(changed)} changed in the list with no request of this client touching ${them}`,
        expected: this.soleClient
          ? 'orders nobody touched listed unchanged'
          : 'orders nobody touched listed unchanged (another client or the store itself may have changed them)',
      });
    }
    return findings;
  }

  /** §3, D2, D16: an order that a cancel removed from the list never comes back. */
  private returned(scope: Scope, now: Map<string, Listed>): StateFinding[] {
    const back = [...scope.gone].filter(([id]) => now.has(id));
    for (const [id] of back) scope.gone.delete(id);
    return back.map(([id, at]) => ({
      rule: 'state.cancelled-returns',
      citation: '§3, D2, D16',
      level: 'failure' as const,
      message: `order ${id} was cancelled (exchange #${at}) and left the list, but the list shows it again`,
      expected: `order ${id} stays out of the list: a cancelled order cannot be reversed`,
    }));
  }
}
