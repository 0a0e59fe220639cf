/**
 * The rules that span requests (§3, §4.1, D1, D2, D16), judged from what the proxy has seen of one
 * client's traffic: each scope (one API key, one `X-Mock-Session`) has its own last list and its own
 * cancels, so several users through one proxy do not mix. The reading a server follows for cancelled
 * orders (D16: dropped from the list, or kept listed) is the server's own, so it is learnt across scopes.
 * Ids are compared exactly, as decimal text of the lossless parse (D8).
 */

import { parseExactJson, stringifyExactJson } from '../contract/index.js';
import { listedOrders } from './cancel-effects.js';
import type { Level } from './types.js';

export interface StateFinding {
  rule: string;
  citation: string;
  level: Level;
  message: string;
  expected: string;
}

/** One listed order: its exact JSON text (to see a change) and its `complete` flag. */
interface Listed {
  text: string;
  complete: unknown;
}

interface Scope {
  /** The last list seen, by order id. */
  list: Map<string, Listed> | null;
  listText: string | null;
  /** Cancels since that list: order id → the last status answered. */
  touched: Map<string, number>;
  /** Orders a 204 cancelled, and the exchange that did: a second 204 breaks D2. */
  cancelled: Map<string, number>;
}

/** How many scopes and cancelled ids are remembered; the oldest go first. */
export const MAX_SCOPES = 1_000;
export const MAX_CANCELLED_PER_SCOPE = 10_000;

/** What the server has shown about cancelled orders (D16), counted over every scope. */
export interface Reading {
  /** Orders cancelled with 204 that the next list no longer showed. */
  dropped: number;
  /** Orders cancelled with 204 that the next list still showed (changed or not). */
  keptListed: number;
}

/** The orders of a list body by id (read as the conformance suite reads a list), `null` when not a list. */
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

/**
 * Remembers each scope's last list and cancels, and says which cross-request rule an answer breaks.
 *
 * @example
 * const tracker = new StateTracker();
 * tracker.list('key #1', '[{"id":7}]', 1);
 * tracker.cancel('key #1', '7', 204, 2);
 * tracker.cancel('key #1', '7', 204, 3); // [{ rule: 'state.second-204', level: 'failure', … }]
 */
export class StateTracker {
  private readonly scopes = new Map<string, Scope>();
  readonly reading: Reading = { dropped: 0, keptListed: 0 };

  private scope(name: string): Scope {
    let found = this.scopes.get(name);
    if (!found) {
      if (this.scopes.size >= MAX_SCOPES) {
        const oldest = this.scopes.keys().next().value;
        if (oldest !== undefined) this.scopes.delete(oldest);
      }
      found = { list: null, listText: null, touched: new Map(), cancelled: new Map() };
      this.scopes.set(name, found);
    }
    return found;
  }

  /** A cancel of `id` (a valid int64) answered with `status`. */
  cancel(scopeName: string, id: string, status: number, exchange: number): StateFinding[] {
    const scope = this.scope(scopeName);
    // A 204 stays the fact of the interval: a later 404 or 409 for the same order is D2's re-cancel.
    if (scope.touched.get(id) !== 204) scope.touched.set(id, status);
    const findings: StateFinding[] = [];
    const earlier = scope.cancelled.get(id);
    if (status === 204) {
      if (earlier !== undefined) {
        findings.push({
          rule: 'state.second-204',
          citation: '§3, D2',
          level: 'failure',
          message: `order ${id} was already cancelled (204 to exchange #${earlier}); a second cancel answered 204 again`,
          expected: '404 or 409 for an order already cancelled (D2), never 204',
        });
      } else {
        if (scope.cancelled.size >= MAX_CANCELLED_PER_SCOPE) {
          const oldest = scope.cancelled.keys().next().value;
          if (oldest !== undefined) scope.cancelled.delete(oldest);
        }
        scope.cancelled.set(id, exchange);
      }
    }
    const listed = scope.list?.get(id);
    if (status === 204 && earlier === undefined && listed && listed.complete === true) {
      findings.push({
        rule: 'state.204-on-complete',
        citation: '§3, D1',
        level: 'warning',
        message: `order ${id} was cancelled (204), but the last list showed it with complete: true (fulfilled)`,
        expected:
          '409 for a shipped order; complete: true reads as fulfilled, though D1 lets a server differ',
      });
    }
    if (status === 409 && earlier === undefined && listed && listed.complete === false) {
      findings.push({
        rule: 'state.409-on-pending',
        citation: '§3, D1',
        level: 'warning',
        message: `order ${id} was refused as shipped (409), but the last list showed it with complete: false`,
        expected: `204 for a pending order; complete: false reads as pending, though D1 lets a server differ`,
      });
    }
    if (status === 404 && earlier === undefined && listed) {
      findings.push({
        rule: 'state.404-on-listed',
        citation: '§4.2, §7',
        level: 'warning',
        message: `order ${id} was refused as not found (404), but the last list showed it`,
        expected:
          'a listed order is found: 204, or 409 when it has shipped (another client may have cancelled it since)',
      });
    }
    return findings;
  }

  /** A 200 answer to the list, with its body. */
  list(scopeName: string, text: string, _exchange: number): StateFinding[] {
    const scope = this.scope(scopeName);
    // The same list again with nothing cancelled since: nothing can have vanished, changed or stayed.
    if (text === scope.listText && scope.touched.size === 0) return [];
    const now = text === scope.listText ? scope.list : readList(text);
    if (now === null) return [];
    const before = scope.list;
    const touched = scope.touched;
    scope.list = now;
    scope.listText = text;
    scope.touched = new Map();
    if (before === null) return [];

    const findings: StateFinding[] = [];
    const stillListed: string[] = [];
    const unlisted: string[] = [];
    for (const [id, status] of touched) {
      if (status !== 204) continue;
      if (!before.has(id)) unlisted.push(id);
      const after = now.get(id);
      if (after === undefined) this.reading.dropped += 1;
      else {
        this.reading.keptListed += 1;
        if (after.text === before.get(id)?.text) stillListed.push(id);
      }
    }
    const vanished = [...before.keys()].filter((id) => !now.has(id) && !touched.has(id));
    const refusedGone = [...touched]
      .filter(([id, status]) => status === 409 && before.has(id) && !now.has(id))
      .map(([id]) => id);
    for (const id of refusedGone) {
      findings.push({
        rule: 'state.refused-then-gone',
        citation: '§3, §4.1',
        level: 'failure',
        message: `order ${id} was refused as shipped (409) and is no longer listed`,
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
        message: `${list(unlisted)} ${unlisted.length === 1 ? 'was' : 'were'} cancelled (204) though the list before did not show ${unlisted.length === 1 ? 'it' : 'them'}, while ${list(vanished)}, which no request cancelled, left the list: the server lists or reads ids inexactly`,
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
          message: `order ${id} was cancelled (204) and is still listed unchanged, ${why}`,
          expected: `order ${id} gone from the list, or shown changed on a server that keeps cancelled orders (D16)`,
        });
      }
    } else if (vanished.length > 0) {
      findings.push({
        rule: 'state.vanished',
        citation: '§4.1',
        level: 'warning',
        message: `${list(vanished)} left the list with no cancel seen through the proxy (another client may have cancelled ${vanished.length === 1 ? 'it' : 'them'})`,
        expected: 'every order listed until it is cancelled',
      });
    }
    const changed = [...before]
      .filter(([id, was]) => !touched.has(id) && now.has(id) && now.get(id)?.text !== was.text)
      .map(([id]) => id);
    if (changed.length > 0) {
      findings.push({
        rule: 'state.changed',
        citation: '§4.1',
        level: 'warning',
        message: `${list(changed)} changed in the list with no request of this client touching ${changed.length === 1 ? 'it' : 'them'}`,
        expected:
          'orders nobody touched listed unchanged (another client or the store itself may have changed them)',
      });
    }
    return findings;
  }
}
