/** The rules that span requests (§3, §4.1, §5, D1, D2, D16) for the suite and the proxy, by the state table. */

import {
  bearerToken,
  type CancelRows,
  type Contract,
  cancelRows,
  type ExactJson,
  parseExactJson,
  sameInteger,
  stringifyExactJson,
} from '../contract/index.js';
import { parseParameter } from '../contract/parameters.js';
import { matchOperation, type ObservedExchange } from './exchange.js';
import { decoded } from './key-forms.js';
import { pathParameterValues, validListItems } from './rules.js';
import type { Level } from './types.js';

/** A rule as reports show it: where it comes from, how bad breaking it is, what it asks. */
export type RuleRow = readonly [citation: string, level: Level, title: string];

/** Every cross-request rule with its citation, level and what it asks; the proxy's report titles its checks so. */
export const STATE_RULES = {
  'state.second-204': ['§3, D2', 'failure', 'an order already cancelled is not cancelled again with 204'],
  'state.cancelled-still-listed': [
    '§3, D2, D16',
    'failure',
    'a cancelled order does not stay listed unchanged where cancelled orders leave the list',
  ],
  'state.cancelled-unlisted': ['§4.1, D8', 'failure', 'the list and the cancels agree on order ids'],
  'state.refused-then-gone': ['§3, §4.1', 'failure', 'a shipped order refused with 409 stays listed'],
  'state.cancel-after-refusal': [
    '§3',
    'failure',
    'an order refused as shipped (409) is never cancelled later: shipped stays shipped',
  ],
  'state.cancelled-returns': [
    '§3, D2, D16',
    'failure',
    'a cancelled order that left the list never comes back',
  ],
  'state.key-inconsistent': [
    '§5',
    'failure',
    'a key is accepted on every operation or refused on every operation',
  ],
  'state.scheme-case': [
    'D7, RFC 9110 §11.1',
    'warning',
    'a key accepted under `Bearer` is accepted under `bearer` too (scheme names are case-insensitive)',
  ],
  'state.409-on-pending': [
    '§3, D1',
    'warning',
    'an order listed with complete: false is not refused as shipped',
  ],
  'state.204-on-complete': [
    '§3, D1',
    'warning',
    'an order listed with complete: true is not cancelled with 204',
  ],
  'state.404-on-listed': ['§4.2, §7', 'warning', 'an order the last list showed is not refused as not found'],
  'state.vanished': [
    '§4.1',
    'warning',
    'an order leaves the list only when cancelled (a failure under --sole-client)',
  ],
  'state.changed': [
    '§4.1',
    'warning',
    'orders nobody touched stay unchanged in the list (a failure under --sole-client)',
  ],
} as const satisfies Record<string, RuleRow>;

function broke(rule: keyof typeof STATE_RULES, message: string, expected: string) {
  const [citation, level]: RuleRow = STATE_RULES[rule];
  return { rule, citation, level, message, expected };
}

/** A cross-request rule one exchange broke, with what it asks. */
export type StateFinding = ReturnType<typeof broke>;

export interface SeenExchange {
  method: string;
  /** Below the base URL, as sent (percent-encoded, query included). */
  path: string;
  status: number | null;
  headers: Readonly<Record<string, string | undefined>>;
  text: string | null;
  /** As sent (`Bearer`, `bearer`…, D7); absent without a bearer token, and then not judged (§5). */
  scheme?: string;
  /** On one clock: overlapping exchanges were in flight together. */
  startedAt?: number;
  endedAt?: number;
}

/** The observer's view of an exchange; `text` is `null` when the body was not read whole. */
export function seenExchange(
  { request, path, outcome }: ObservedExchange,
  authorization: string | undefined,
  startedAt: number,
  endedAt: number,
  text = outcome.ok ? outcome.value.text : null,
): SeenExchange {
  const scheme = bearerToken(authorization)?.scheme;
  const answer = outcome.ok ? outcome.value : null;
  return {
    method: request.method,
    path,
    status: answer?.status ?? null,
    headers: answer?.headers ?? {},
    text,
    scheme,
    startedAt,
    endedAt,
  };
}

function overlapping(a: SeenExchange, b: SeenExchange): boolean {
  const [never, always] = [Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY];
  return (a.startedAt ?? never) < (b.endedAt ?? always) && (b.startedAt ?? never) < (a.endedAt ?? always);
}

/** D7, RFC 9110 §11.1: a key refused under `bearer` and accepted under `Bearer`, a warning. */
export function schemeCaseFinding(scheme: string, refusedAt: number, acceptedAt: number): StateFinding {
  return broke(
    'state.scheme-case',
    `the key was refused (401) under the scheme ${JSON.stringify(scheme)} (exchange #${refusedAt}) and accepted under "Bearer" (exchange #${acceptedAt})`,
    `the scheme name read case-insensitively (RFC 9110 §11.1, D7): "${scheme} <key>" accepted like "Bearer <key>"`,
  );
}

/** One listed order: its exact JSON text (to see a change) and its `complete` flag. */
export interface Listed {
  text: string;
  complete: unknown;
}

export type OrderList = ReadonlyMap<string, Listed>;

interface Known {
  status: number;
  states: readonly string[];
  exchange: number;
}

interface Scope {
  list?: Map<string, Listed>;
  listText?: string;
  previous?: Map<string, Listed>;
  /** Cancels since the last list: order id → the status that stays the fact of the interval. */
  touched: Map<string, number>;
  /** The first answer that placed each order in a state. */
  known: Map<string, Known>;
  /** Orders a 204 removed from the list → the exchange that cancelled them. */
  gone: Map<string, number>;
}

interface KeyAuth {
  /** The first exchange that refused (401) and the first that accepted the key, by operation. */
  byOperation: Map<string, { refused: number | null; accepted: number | null }>;
  flagged?: true;
  /** D7: the first 401 under a scheme spelled other than `Bearer`. */
  caseRefused: { scheme: string; exchange: number } | null;
  acceptedSchemes: Map<string, number>;
  caseFlagged?: true;
}

/** How many scopes, keys and ids are remembered; the oldest go first. */
export const MAX_SCOPES = 1_000;
const MAX_CANCELLED_PER_SCOPE = 10_000;
/** At 8 bytes per character (a 951 KB list measured 8.5 MB): a client can open a new session per request. */
export const MAX_LIST_BYTES = 256 * 1024 * 1024;
const BYTES_PER_LIST_CHAR = 8;

/** Orders by exact id (D8), `null` when not a JSON array; items without an id are the schema's to judge. */
export function readList(text: string): { orders: Map<string, Listed>; items: ExactJson[] } | null {
  const valid = validListItems(text);
  const parsed = valid ? { ok: true, value: valid } : parseExactJson(text);
  if (!parsed.ok || !Array.isArray(parsed.value)) return null;
  const orders = new Map<string, Listed>();
  for (const item of parsed.value) {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) continue;
    if (typeof item.id !== 'number' && typeof item.id !== 'bigint') continue;
    orders.set(String(item.id), { text: stringifyExactJson(item), complete: item.complete });
  }
  return { orders, items: parsed.value };
}

/** The orders that differ between two lists, leaving out `ignore`, each described (`when` follows the verb). */
export function differences(
  before: OrderList,
  after: OrderList,
  ignore: { has(id: string): boolean } = new Set(),
  when = '',
): Array<{ orderId: string; what: string }> {
  const found: Array<{ orderId: string; what: string }> = [];
  for (const [id, was] of before) {
    const now = after.get(id);
    if (ignore.has(id)) continue;
    if (now === undefined) found.push({ orderId: id, what: `order ${id} left the list${when}` });
    else if (now.text !== was.text)
      found.push({ orderId: id, what: `order ${id} changed${when} (was ${was.text}, now ${now.text})` });
  }
  for (const [id, now] of after) {
    if (!before.has(id) && !ignore.has(id))
      found.push({ orderId: id, what: `order ${id} appeared${when} (${now.text})` });
  }
  return found;
}

/** One cancel of a suite's step: the order it named (else `null`) and its answer. */
export interface SentCancel {
  path: string;
  /** The path parameter as sent, decoded: `42`, `1.5`. */
  raw: string;
  id: string | null;
  status: number | null;
}

/** How the server treats a cancelled order in the list (D16), learned from what it did. */
export type CancelledReading = 'drops' | 'keeps';

/** What one step of the suite did to the list (§3, D2, D16): only orders a successful cancel named change. */
export function cancelEffect(
  before: OrderList,
  after: OrderList,
  cancels: readonly SentCancel[],
  reading: CancelledReading | null,
) {
  // A cancel without an answer (a time-out) may have gone through too.
  const succeeded = (c: SentCancel) => c.status === null || (c.status >= 200 && c.status <= 299);
  const mayHaveCancelled = new Set(cancels.filter(succeeded).flatMap((c) => c.id ?? []));
  const sent = cancels
    .map((c) => `DELETE ${c.path} answered ${c.status === null ? 'nothing' : c.status}`)
    .join(' and ');
  // Orders no successful cancel named are compared as everywhere else; the named ones teach the D16 reading.
  const expected = (id: string) => `order ${id} still listed and unchanged (§3, D16)`;
  const when = ` after ${sent}: no successful cancel named it`;
  const problems = differences(before, after, mayHaveCancelled, when)
    .filter((d) => before.has(d.orderId))
    .map(({ orderId, what }) => ({ orderId, message: what, expected: expected(orderId) }));
  let learned: CancelledReading | null = null;
  for (const id of mayHaveCancelled) {
    const was = before.get(id)?.text;
    const now = after.get(id)?.text;
    const answered = cancels.some((c) => c.id === id && c.status !== null);
    if (was === undefined || !answered) continue;
    if (now === undefined) learned = 'drops';
    else if (reading === 'drops' && now === was) {
      problems.push({
        orderId: id,
        message: `order ${id} is still listed unchanged after ${sent}, although this server drops cancelled orders from the list (D2, D16)`,
        expected: `order ${id} no longer listed`,
      });
    } else if (reading === null) learned ??= 'keeps';
  }
  const appeared = [...after.keys()].filter((id) => !before.has(id));
  const notes =
    appeared.length > 0 ? [`order(s) ${appeared.join(', ')} appeared in the list during the run`] : [];
  return { problems, learned, notes };
}

export function describeReading(reading: CancelledReading): string {
  return reading === 'drops'
    ? 'this server drops a cancelled order from the list (D2)'
    : 'this server keeps a cancelled order in the list (allowed, D16)';
}

const list = (ids: readonly string[]): string =>
  ids.length === 1 ? `order ${ids[0]}` : `orders ${ids.slice(0, -1).join(', ')} and ${ids.at(-1)}`;
const them = (ids: readonly string[]): string => (ids.length === 1 ? 'it' : 'them');

function bounded<K, V>(map: Map<K, V>, max: number): void {
  if (map.size >= max) map.delete(map.keys().next().value as K);
}

/** Remembers each scope's last list, cancels and key answers, and says which cross-request rule an answer breaks. */
export class Observer {
  private readonly scopes = new Map<string, Scope>();
  private readonly keys = new Map<string, KeyAuth>();
  /** The last exchange that moved each order (204), in any scope: D20 counts it as a cancel seen from then on. */
  private readonly movedAnywhere = new Map<string, number>();
  private readonly table: CancelRows;
  /** What the server has shown about cancelled orders (D16), and the scopes forgotten for {@link MAX_LIST_BYTES}. */
  readonly reading = { dropped: 0, keptListed: 0, forgottenScopes: 0 };
  readonly soleClient: boolean;
  private readonly maxListBytes: number;
  private listBytes = 0;

  constructor(
    private readonly contract: Contract,
    /** `soleClient`, D20: a change no request explains is a failure, not another client's (a warning). */
    options: { soleClient?: boolean; maxListBytes?: number } = {},
  ) {
    this.table = cancelRows(contract);
    this.soleClient = options.soleClient === true;
    this.maxListBytes = options.maxListBytes ?? MAX_LIST_BYTES;
  }

  /** By the end of their answers, but a 204 before an overlapping refusal of its order (a double click's loser may answer first). */
  order<T extends { seen: SeenExchange }>(entries: readonly T[]): T[] {
    const byEnd = [...entries].sort((a, b) => (a.seen.endedAt ?? 0) - (b.seen.endedAt ?? 0));
    const cancelOf = (seen: SeenExchange) =>
      seen.scheme !== undefined && seen.status !== null
        ? (this.orderOf(seen.method, seen.path)?.id ?? null)
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
      out.splice(at === -1 ? out.length : at, 0, entry);
    }
    return out;
  }

  /** The cross-request rules one exchange breaks; `scope.orders` is the key with its session, `exchange` its number. */
  observe(scope: { key: string; orders: string }, seen: SeenExchange, exchange: number): StateFinding[] {
    if (seen.scheme === undefined || seen.status === null) return [];
    const operationId = matchOperation(this.contract, seen.method, seen.path);
    if (operationId === null) return [];
    const found = this.auth(scope.key, operationId, seen, exchange);
    if (operationId === 'listOrders' && seen.status === 200 && seen.text !== null) {
      found.push(...this.list(scope.orders, seen.text, exchange, this.filters(seen.path)));
    } else if (operationId === 'cancelOrder') {
      const order = this.orderOf(seen.method, seen.path);
      // D9: a success for `0x7` or `07` is a cancel of order 7, the same integer in another notation.
      const same = order !== null && this.table.moves.has(seen.status) ? sameInteger(order.raw) : null;
      const id = order?.id ?? (same === null ? null : String(same));
      if (id !== null) found.push(...this.cancel(scope.orders, id, seen.status, exchange));
    }
    return found;
  }

  /** The order a cancel names: the decoded segment, and the id as canonical text (`null` when not an int64, D9). */
  orderOf(method: string, path: string): { raw: string; id: string | null } | null {
    if (matchOperation(this.contract, method, path) !== 'cancelOrder') return null;
    const operation = this.contract.operation('cancelOrder');
    const [[name, value] = []] = pathParameterValues(operation, path);
    const parameter = operation.parameters.find((p) => p.in === 'path' && p.name === name);
    if (value === undefined || parameter === undefined) return null;
    const raw = decoded(value);
    if (raw === null) return { raw: value, id: null };
    const parsed = parseParameter(parameter, raw);
    return { raw, id: parsed.ok ? String(parsed.value) : null };
  }

  /** Whether a list read may be filtered: it sends a query parameter the document declares (`?limit=1`). */
  private filters(path: string): boolean {
    const query = new URLSearchParams(path.split('?')[1] ?? '');
    return this.contract
      .operation('listOrders')
      .parameters.some((p) => p.in === 'query' && query.has(p.name));
  }

  /** The scope's last two lists read, for the suite to judge its own step by (§3, D16). */
  compared(scopeName: string): { before: OrderList | null; after: OrderList | null } {
    const scope = this.scopes.get(scopeName);
    return { before: scope?.previous ?? null, after: scope?.list ?? null };
  }

  /** Forgets the oldest scopes but `current` while over {@link MAX_SCOPES} or the list budget. */
  private forgetOldest(current: Scope, budget: boolean): void {
    for (const [name, scope] of this.scopes) {
      if (budget ? this.listBytes <= this.maxListBytes : this.scopes.size < MAX_SCOPES) return;
      if (scope === current) continue;
      this.listBytes -= (scope.listText?.length ?? 0) * BYTES_PER_LIST_CHAR;
      this.scopes.delete(name);
      if (budget) this.reading.forgottenScopes += 1;
    }
  }

  private scope(name: string): Scope {
    const found = this.scopes.get(name);
    if (found) return found;
    const scope: Scope = { touched: new Map(), known: new Map(), gone: new Map() };
    this.forgetOldest(scope, false);
    this.scopes.set(name, scope);
    return scope;
  }

  /** §5: one key accepted everywhere or refused everywhere; a key revoked during the run is not flagged. */
  private auth(key: string, operationId: string, seen: SeenExchange, exchange: number): StateFinding[] {
    let known = this.keys.get(key);
    if (!known) {
      bounded(this.keys, MAX_SCOPES);
      known = { byOperation: new Map(), caseRefused: null, acceptedSchemes: new Map() };
      this.keys.set(key, known);
    }
    const status = seen.status as number;
    const scheme = seen.scheme ?? 'Bearer';
    // A 401 to a scheme spelled other than `Bearer` is D7's question, not a verdict on the key.
    if (status === 401 && scheme !== 'Bearer') {
      known.caseRefused ??= { scheme, exchange };
      return this.schemeCase(known);
    }
    const op = this.contract.operation(operationId);
    // A documented status but 401 and 5xx; a deprecated read's bare 404 may be an unrouted path (D10, D11).
    const unrouted = op.deprecated && status === 404 && seen.headers.deprecation === undefined;
    const accepted = status !== 401 && status < 500 && op.statuses.includes(status) && !unrouted;
    if (accepted && !known.acceptedSchemes.has(scheme)) known.acceptedSchemes.set(scheme, exchange);
    const found = this.schemeCase(known);
    const entry = known.byOperation.get(operationId) ?? { refused: null, accepted: null };
    known.byOperation.set(operationId, entry);
    if (status === 401) entry.refused ??= exchange;
    else if (accepted) entry.accepted ??= exchange;
    if (known.flagged) return found;
    const entries = [...known.byOperation];
    const [refusedOp, refused] = entries.find(([, e]) => e.refused !== null && e.accepted === null) ?? [];
    const other = entries.find(([op, e]) => e.accepted !== null && op !== refusedOp);
    if (refused === undefined || other === undefined) return found;
    known.flagged = true;
    const message = `the same key was refused (401) on ${refusedOp} (exchange #${refused.refused}) and accepted on ${other[0]} (exchange #${other[1].accepted})`;
    const expected = 'one key accepted on every operation, or refused on every operation (§5)';
    return [...found, broke('state.key-inconsistent', message, expected)];
  }

  /** D7 once per key: refused under a spelling of the scheme it was never accepted under, accepted under `Bearer`. */
  private schemeCase(known: KeyAuth): StateFinding[] {
    const { caseRefused: refused, acceptedSchemes: accepted } = known;
    const exact = accepted.get('Bearer');
    if (known.caseFlagged || !refused || exact === undefined || accepted.has(refused.scheme)) return [];
    known.caseFlagged = true;
    return [schemeCaseFinding(refused.scheme, refused.exchange, exact)];
  }

  /** `id` is a valid int64. */
  cancel(scopeName: string, id: string, status: number, exchange: number): StateFinding[] {
    const scope = this.scope(scopeName);
    const { table } = this;
    const moved = table.moves.has(status);
    // The first answer stays the fact of the interval (a later refusal is D2's re-cancel), unless a later one moved it.
    const before = scope.touched.get(id);
    if (before === undefined || (moved && !table.moves.has(before))) scope.touched.set(id, status);
    if (moved && !this.movedAnywhere.delete(id)) bounded(this.movedAnywhere, MAX_CANCELLED_PER_SCOPE);
    if (moved) this.movedAnywhere.set(id, exchange);
    const earlier = scope.known.get(id);
    if (earlier !== undefined) {
      return table.allows(earlier.states, status) ? [] : [this.reversal(id, earlier, status)];
    }
    // A 404 names an order unknown or gone: no state.
    const states = table.statesAfter(status).filter((s) => moved || table.table.isListed(s));
    if (states.length > 0) {
      bounded(scope.known, MAX_CANCELLED_PER_SCOPE);
      scope.known.set(id, { status, states, exchange });
    }
    const listed = scope.list?.get(id);
    const found = listed && this.againstList(id, status, listed);
    return found ? [found] : [];
  }

  /** The finding for an answer the order's known state cannot give (a second 204, a 204 after a 409). */
  private reversal(id: string, earlier: Known, status: number): StateFinding {
    if (this.table.moves.has(earlier.status)) {
      return broke(
        'state.second-204',
        `order ${id} was already cancelled (${earlier.status} to exchange #${earlier.exchange}); a second cancel answered ${status} again`,
        `404 or ${this.table.refusal ?? 409} for an order already cancelled (D2), never ${status}`,
      );
    }
    return broke(
      'state.cancel-after-refusal',
      `order ${id} was refused with ${earlier.status} (exchange #${earlier.exchange}: it is ${earlier.states.join(' or ')}), and a later cancel answered ${status}`,
      `${earlier.status} again: a ${earlier.states.join(' or ')} order stays ${earlier.states.join(' or ')} (§3)`,
    );
  }

  /** The warning for an answer that does not fit how the last list showed the order (D1 lets servers differ). */
  private againstList(id: string, status: number, listed: Listed): StateFinding | null {
    const { table } = this;
    const from = table.statesBefore(status);
    if (from.length === 0) return null;
    const listedFrom = from.filter((s) => table.table.isListed(s));
    if (listedFrom.length === 0) {
      return broke(
        'state.404-on-listed',
        `order ${id} was refused as not found (${status}), but the last list showed it`,
        `a listed order is found: ${[...table.moves].join(' or ')}, or ${table.refusal ?? 409} when it has shipped (another client may have cancelled it since)`,
      );
    }
    if (typeof listed.complete !== 'boolean') return null;
    if (listedFrom.some((s) => table.table.complete(s) === listed.complete)) return null;
    if (table.moves.has(status)) {
      return broke(
        'state.204-on-complete',
        `order ${id} was cancelled (${status}), but the last list showed it with complete: ${listed.complete}`,
        `${table.refusal ?? 409} for a shipped order; complete: true reads as fulfilled, though D1 lets a server differ`,
      );
    }
    return broke(
      'state.409-on-pending',
      `order ${id} was refused as shipped (${status}), but the last list showed it with complete: ${listed.complete}`,
      `${[...table.moves].join(' or ')} for a pending order; complete: false reads as pending, though D1 lets a server differ`,
    );
  }

  /** A 200 list read; a filtered one is not the whole list, so it can only show a cancelled order back. */
  list(scopeName: string, text: string, exchange: number, filtered = false): StateFinding[] {
    const scope = this.scope(scopeName);
    if (filtered) {
      const read = readList(text);
      return read === null ? [] : this.returned(scope, read.orders);
    }
    // The same list again with nothing cancelled since: nothing can have vanished, changed or come back.
    if (text === scope.listText && scope.touched.size === 0) {
      scope.previous = scope.list;
      return [];
    }
    const now = text === scope.listText ? scope.list : readList(text)?.orders;
    if (!now) return [];
    const before = scope.list;
    scope.previous = before;
    const touched = scope.touched;
    this.listBytes += (text.length - (scope.listText?.length ?? 0)) * BYTES_PER_LIST_CHAR;
    scope.list = now;
    scope.listText = text;
    this.forgetOldest(scope, true);
    scope.touched = new Map();

    const findings: StateFinding[] = this.returned(scope, now);
    if (!before) return findings;
    const flag = (...finding: Parameters<typeof broke>) => findings.push(broke(...finding));
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
    // D20: a change no request explains is another client's (a warning), unless the run is the sole client.
    const unexplainedBy = (
      rule: 'state.vanished' | 'state.changed',
      ids: string[],
      verb: string,
      shared: string,
    ) => {
      const alone = `${list(ids)} ${verb} with no request naming ${them(ids)}, and no other client uses this server`;
      const expected =
        rule === 'state.vanished'
          ? 'every order listed until it is cancelled'
          : `orders nobody touched listed unchanged${this.soleClient ? '' : ' (another client or the store itself may have changed them)'}`;
      const sole = this.soleClient ? { citation: '§4.1, D16, D20', level: 'failure' as const } : {};
      findings.push({ ...broke(rule, this.soleClient ? alone : shared, expected), ...sole });
    };
    // A 204 seen in any scope, at any time, explains a vanish (D20): the same server sees every scope.
    const explained = (id: string) => touched.has(id) || this.movedAnywhere.has(id);
    const unexplained = differences(before, now, { has: explained }).flatMap((d) =>
      before.has(d.orderId) ? [d.orderId] : [],
    );
    const vanished = unexplained.filter((id) => !now.has(id));
    for (const [id, status] of touched) {
      if (table.moves.has(status) || !before.has(id) || now.has(id)) continue;
      if (!table.statesAfter(status).some((s) => table.table.isListed(s))) continue;
      flag(
        'state.refused-then-gone',
        `order ${id} was refused (${status}: it stays ${table.statesAfter(status).join(' or ')}) and is no longer listed`,
        `order ${id} still listed: a shipped order stays shipped, and the list holds every order`,
      );
    }
    // A 204 for an unlisted order while an uncancelled one left: the list and the cancel disagree about ids (D8).
    if (unlisted.length > 0 && vanished.length > 0) {
      flag(
        'state.cancelled-unlisted',
        `${list(unlisted)} ${unlisted.length === 1 ? 'was' : 'were'} cancelled (${touched.get(unlisted[0] ?? '')}) though the list before did not show ${them(unlisted)}, while ${list(vanished)}, which no request cancelled, left the list: the server lists or reads ids inexactly`,
        'the list shows every order exactly (D8), and a cancel removes the order it names',
      );
      return findings;
    }
    // Listed exactly as before after its 204: wrong on a server seen to drop cancelled orders, and on any
    // server when an uncancelled order vanished instead (the cancel hit a rounded or mis-parsed id).
    if (stillListed.length > 0 && (this.reading.dropped > 0 || vanished.length > 0)) {
      for (const id of stillListed) {
        const why =
          vanished.length > 0
            ? `while ${list(vanished)}, which no request cancelled, vanished: the cancel seems to have hit the wrong order`
            : 'although this server has been seen to drop cancelled orders from its list (D16)';
        flag(
          'state.cancelled-still-listed',
          `order ${id} was cancelled (${touched.get(id)}) and is still listed unchanged, ${why}`,
          `order ${id} gone from the list, or shown changed on a server that keeps cancelled orders (D16)`,
        );
      }
    } else if (vanished.length > 0) {
      const shared = `${list(vanished)} left the list with no cancel seen (another client may have cancelled ${them(vanished)})`;
      unexplainedBy('state.vanished', vanished, 'left the list', shared);
    }
    const changed = unexplained.filter((id) => now.has(id));
    if (changed.length > 0) {
      const shared = `${list(changed)} changed in the list with no request of this client touching ${them(changed)}`;
      unexplainedBy('state.changed', changed, 'changed in the list', shared);
    }
    return findings;
  }

  /** §3, D2, D16: an order that a cancel removed from the list never comes back. */
  private returned(scope: Scope, now: Map<string, Listed>): StateFinding[] {
    const back = [...scope.gone].filter(([id]) => now.has(id));
    for (const [id] of back) scope.gone.delete(id);
    return back.map(([id, at]) =>
      broke(
        'state.cancelled-returns',
        `order ${id} was cancelled (exchange #${at}) and left the list, but the list shows it again`,
        `order ${id} stays out of the list: a cancelled order cannot be reversed`,
      ),
    );
  }
}
