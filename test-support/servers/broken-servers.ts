/**
 * Broken servers: the reference implementation with ONE contract bug each, and the check(s) meant to
 * catch it. The proof test runs the suite against each and requires exactly these outcomes: the listed
 * checks FAIL (or WARN), and no other check fails or warns except the listed collateral of the same bug.
 * A test also requires every check of the suite to be caught by at least one server here.
 */
import {
  type Behaviour,
  behaviour,
  CORRECT,
  MOCK_LIKE_READINGS,
  type Reply,
  TARGET_KEY,
  type TargetOrder,
} from './reference-server.js';

export interface BrokenServer {
  name: string;
  /** The bug, in words. */
  bug: string;
  behaviour: Behaviour;
  /** The checks meant to catch the bug, and how. */
  caughtBy: Record<string, 'FAIL' | 'WARN'>;
  /** Other checks that fail because of the same bug (nothing else may fail). */
  collateral?: string[];
  /** Other checks that warn because of the same bug (nothing else may warn). */
  alsoWarns?: string[];
  /** Text a check's message must contain: the order that really changed, the header that broke. */
  says?: Array<[string, string]>;
  /**
   * Checks of `caughtBy` that catch the bug only by cancelling a pending order: a read-only run sends them
   * to ids no order has, and they pass (D19).
   */
  caughtOnlyByCancelling?: string[];
  /** The collateral shows only with the fuzz phase on (implied when a check of the bug is fuzz.invariants). */
  needsFuzz?: boolean;
}

const ops = ['listOrders', 'cancelOrder', 'getPet'] as const;
const authFamily = (variant: string): Record<string, 'FAIL'> =>
  Object.fromEntries(ops.map((op) => [`auth.${op}.${variant}`, 'FAIL' as const]));

const broken = (parts: Partial<Omit<Behaviour, 'readings'>>): Behaviour =>
  behaviour(MOCK_LIKE_READINGS, parts);

/** Accepts the header when `accepts` says so, else defers to the correct check. */
const authAlso = (accepts: (authorization: string | undefined) => boolean) =>
  broken({
    authorized: (b, authorization) => accepts(authorization) || CORRECT.authorized(b, authorization),
  });

export const BROKEN_SERVERS: readonly BrokenServer[] = [
  {
    name: 'list-id-outside-int64',
    bug: 'lists an order whose id is 18446744073709551616 (2^64, outside int64: D8)',
    behaviour: broken({
      listOrders(b, store) {
        const listed = CORRECT.listOrders(b, store);
        if ('raw' in listed) return listed;
        return {
          ...listed,
          body: (listed.body ?? '[]').replace(/^\[/, '[{"id":18446744073709551616,"petId":10},'),
        };
      },
    }),
    caughtBy: { 'list.orders': 'FAIL' },
  },
  {
    name: 'list-text-plain',
    bug: 'sends the order list as text/plain (D15)',
    behaviour: broken({
      listOrders(b, store) {
        const listed = CORRECT.listOrders(b, store);
        return 'raw' in listed ? listed : { ...listed, headers: { 'content-type': 'text/plain' } };
      },
    }),
    caughtBy: { 'list.orders': 'FAIL' },
  },
  {
    name: 'list-hides-shipped',
    bug: 'leaves shipped orders out of GET /store/orders (§4.1: all orders)',
    behaviour: broken({
      listOrders(b, store) {
        return CORRECT.listOrders(b, {
          ...store,
          orders: store.orders.filter((o) => o.status !== 'shipped'),
        });
      },
    }),
    caughtBy: { 'list.includes-given-orders': 'FAIL' },
  },
  {
    name: 'auth-missing-header-allowed',
    bug: 'lets requests without an Authorization header through (§5)',
    behaviour: authAlso((authorization) => authorization === undefined),
    caughtBy: {
      ...authFamily('no-header'),
      'auth.near-miss-keys': 'FAIL',
      'auth.cancelOrder.shipped-order': 'FAIL',
      'auth.cancelOrder.malformed-id': 'FAIL',
      'auth.cancelOrder.pending-order': 'FAIL',
    },
  },
  {
    name: 'auth-any-bearer-token',
    bug: 'accepts any non-empty bearer token (§5)',
    behaviour: authAlso((authorization) => /^bearer +\S+$/i.test(authorization ?? '')),
    caughtBy: {
      ...authFamily('wrong-key'),
      'auth.near-miss-keys': 'FAIL',
      'auth.cancelOrder.shipped-order': 'FAIL',
      'auth.cancelOrder.pending-order': 'FAIL',
    },
  },
  {
    name: 'auth-any-bearer-token-no-pet-ids',
    bug: 'accepts any non-empty bearer token, lists orders without petId and answers an unknown pet with a bare 404 (§5): the suite has no pet id to ask with',
    behaviour: broken({
      authorized: (b, authorization) =>
        /^bearer +\S+$/i.test(authorization ?? '') || CORRECT.authorized(b, authorization),
      listOrders(b, store) {
        const listed = store.orders
          .filter((o) => o.status !== 'cancelled')
          .map((o) => ({ id: o.id, quantity: o.quantity, complete: o.status === 'shipped' }));
        return b.json(b, 200, listed);
      },
      getPet: (b, raw) => b.json(b, 404, { code: 'not_found', message: `No pet ${raw}.`, status: 404 }),
    }),
    caughtBy: {
      ...authFamily('wrong-key'),
      'auth.near-miss-keys': 'FAIL',
      'auth.cancelOrder.shipped-order': 'FAIL',
      'auth.cancelOrder.pending-order': 'FAIL',
    },
    says: [['auth.getPet.wrong-key', 'GET /pets/1 answered 404, expected 401']],
  },
  {
    name: 'auth-key-prefix',
    bug: 'compares the token with the key only as far as the token goes (a compare cut short), so a prefix of the key is accepted (D7)',
    behaviour: authAlso((a) => {
      const token = /^bearer +(\S+)$/i.exec(a ?? '')?.[1];
      return token !== undefined && token.length > 4 && TARGET_KEY.startsWith(token);
    }),
    caughtBy: { 'auth.near-miss-keys': 'FAIL' },
    says: [['auth.near-miss-keys', 'with the key without its last character (a prefix) answered 200']],
  },
  {
    name: 'auth-key-case-insensitive',
    bug: 'compares the key ignoring case (D7)',
    behaviour: authAlso(
      (a) => /^bearer +(\S+)$/i.exec(a ?? '')?.[1]?.toLowerCase() === TARGET_KEY.toLowerCase(),
    ),
    caughtBy: { 'auth.near-miss-keys': 'FAIL' },
    says: [['auth.near-miss-keys', 'with the key with its case changed answered 200']],
  },
  {
    name: 'auth-key-in-query',
    bug: 'also takes the key from `?api_key=` (D7)',
    behaviour: broken({
      async handle(b, request, store) {
        const key = new URLSearchParams(request.query).get('api_key');
        const authorization = key === TARGET_KEY ? `Bearer ${key}` : request.authorization;
        return CORRECT.handle(b, { ...request, authorization }, store);
      },
    }),
    caughtBy: { 'auth.near-miss-keys': 'FAIL' },
    says: [['auth.near-miss-keys', 'with the key only in the query string (`?api_key=`)']],
  },
  {
    name: 'auth-empty-token-allowed',
    bug: 'treats `Bearer` with an empty token as authenticated (D7)',
    behaviour: authAlso((authorization) => /^bearer *$/i.test(authorization ?? '')),
    caughtBy: authFamily('empty-bearer'),
  },
  {
    name: 'auth-refuses-lowercase-bearer',
    bug: 'refuses the key under a lower-case `bearer` scheme with 401, though scheme names are case-insensitive (D7, RFC 9110 §11.1)',
    behaviour: broken({
      authorized: (_b, authorization) => authorization === `Bearer ${TARGET_KEY}`,
    }),
    caughtBy: { 'auth.scheme-case': 'WARN' },
  },
  {
    name: 'auth-accepts-basic',
    bug: 'accepts the key under the Basic scheme (D7)',
    behaviour: authAlso((authorization) => authorization === `Basic ${TARGET_KEY}`),
    caughtBy: authFamily('basic-scheme'),
  },
  {
    name: 'auth-accepts-token',
    bug: 'accepts the key under the Token scheme (D7)',
    behaviour: authAlso((authorization) => authorization === `Token ${TARGET_KEY}`),
    caughtBy: authFamily('token-scheme'),
  },
  {
    name: 'auth-accepts-bare-key',
    bug: 'accepts the bare key without a scheme (D7)',
    behaviour: authAlso((authorization) => authorization === TARGET_KEY),
    caughtBy: authFamily('bare-key'),
  },
  {
    name: 'auth-401-plain-text',
    bug: 'answers 401 with a plain-text body instead of an Error (§5, §7)',
    behaviour: broken({
      error(b, status, code, message, headers) {
        return status === 401
          ? { status, headers: { 'content-type': 'text/plain' }, body: 'Unauthorized' }
          : CORRECT.error(b, status, code, message, headers);
      },
    }),
    caughtBy: {
      ...authFamily('no-header'),
      ...authFamily('wrong-key'),
      ...authFamily('empty-bearer'),
      ...authFamily('basic-scheme'),
      ...authFamily('token-scheme'),
      ...authFamily('bare-key'),
      'auth.near-miss-keys': 'FAIL',
      'auth.cancelOrder.shipped-order': 'FAIL',
      'auth.cancelOrder.malformed-id': 'FAIL',
      'auth.cancelOrder.pending-order': 'FAIL',
      'errors.contract': 'FAIL',
    },
    // The fuzz phase's requests get the same broken answers.
    collateral: ['fuzz.invariants'],
  },
  {
    name: 'error-status-field-wrong',
    bug: 'the Error body of a 404 says status 400 (D5)',
    behaviour: broken({
      error(b, status, code, message, headers) {
        return status === 404
          ? CORRECT.json(b, 404, { code, message, status: 400 }, headers)
          : CORRECT.error(b, status, code, message, headers);
      },
    }),
    caughtBy: { 'cancel.unknown-order': 'FAIL', 'errors.contract': 'FAIL' },
    // The malformed ids are 404 on this server, so their relaxed D9 check warns too.
    alsoWarns: ['cancel.malformed-id.error-body'],
    // The fuzz phase's requests get the same broken answers.
    collateral: ['fuzz.invariants'],
  },
  {
    name: 'errors-problem-json',
    bug: 'sends 404 Error bodies as application/problem+json (D15)',
    behaviour: broken({
      error(b, status, code, message, headers) {
        const reply = CORRECT.error(b, status, code, message, headers);
        return status === 404 && !('raw' in reply)
          ? { ...reply, headers: { ...reply.headers, 'content-type': 'application/problem+json' } }
          : reply;
      },
    }),
    caughtBy: { 'cancel.unknown-order': 'FAIL', 'errors.contract': 'FAIL' },
    // The malformed ids are 404 on this server too, so their relaxed D9 check warns.
    alsoWarns: ['cancel.malformed-id.error-body'],
    // The fuzz phase's requests get the same broken answers.
    collateral: ['fuzz.invariants'],
  },
  {
    name: 'recancel-404-not-error',
    bug: 'answers a second cancel with 404 and a body that is not an Error (§7)',
    behaviour: broken({
      async transition(b, order, id) {
        if (order?.status === 'cancelled') return CORRECT.json(b, 404, { error: 'gone' });
        return CORRECT.transition(b, order, id);
      },
    }),
    caughtBy: { 'errors.contract': 'FAIL' },
    caughtOnlyByCancelling: ['errors.contract'],
  },
  {
    name: 'auth-after-lookup',
    bug: 'looks the order up before checking the key: an unknown id without a key is 404 (D6)',
    behaviour: broken({
      async handle(b, request, store) {
        const match = /^\/store\/orders\/([^/]+)$/.exec(request.path);
        if (request.method === 'DELETE' && match?.[1] !== undefined) {
          const id = b.parseOrderId(b, match[1]);
          if (id !== null && !store.find(id))
            return b.error(b, 404, 'order_not_found', `No order has id ${id}.`);
        }
        return CORRECT.handle(b, request, store);
      },
    }),
    caughtBy: Object.fromEntries(
      ['no-header', 'wrong-key', 'empty-bearer', 'basic-scheme', 'token-scheme', 'bare-key'].map((v) => [
        `auth.cancelOrder.${v}`,
        'FAIL' as const,
      ]),
    ),
    // The wrong key is refused on the list and answered 404 on a cancel: refused on one operation only.
    collateral: ['auth.same-key-everywhere'],
  },
  {
    name: 'auth-after-id-validation',
    bug: 'validates the order id before checking the key: a malformed id without a key is 404 (D6)',
    behaviour: broken({
      async handle(b, request, store) {
        const match = /^\/store\/orders\/([^/]+)$/.exec(request.path);
        if (request.method === 'DELETE' && match?.[1] !== undefined && b.parseOrderId(b, match[1]) === null) {
          return CORRECT.cancelOrder(b, match[1], store);
        }
        return CORRECT.handle(b, request, store);
      },
    }),
    caughtBy: { 'auth.cancelOrder.malformed-id': 'FAIL' },
    // The fuzz phase sends wrong keys with malformed ids too: refused on the list, answered 404 on such a
    // cancel, the key is refused on one operation only.
    collateral: ['auth.same-key-everywhere'],
    needsFuzz: true,
  },
  {
    name: 'auth-after-shipped-check',
    bug: 'refuses a shipped order with 409 before checking the key (D6)',
    behaviour: broken({
      async handle(b, request, store) {
        const order = shippedOrPendingTarget(b, request, store, 'shipped');
        if (order) return CORRECT.transition(b, order, order.id);
        return CORRECT.handle(b, request, store);
      },
    }),
    caughtBy: { 'auth.cancelOrder.shipped-order': 'FAIL' },
    // The wrong key is refused on the list and answered 409 on a shipped order's cancel.
    collateral: ['auth.same-key-everywhere'],
  },
  {
    name: 'auth-skipped-for-pending',
    bug: 'cancels a pending order without checking the key (a "fast path" before auth: §5)',
    behaviour: broken({
      async handle(b, request, store) {
        const order = shippedOrPendingTarget(b, request, store, 'pending');
        if (order) return CORRECT.transition(b, order, order.id);
        return CORRECT.handle(b, request, store);
      },
    }),
    caughtBy: { 'auth.cancelOrder.pending-order': 'FAIL' },
    // The fast path skips auth for the pending orders the other destructive checks use too, but with the
    // key they succeed as they should; only the order of auth.cancelOrder.pending-order is affected.
  },
  {
    name: 'cancel-unknown-204',
    bug: 'answers 204 to cancelling an order that does not exist ("idempotent delete", §4.2)',
    behaviour: broken({
      async transition(b, order, id) {
        return order ? CORRECT.transition(b, order, id) : { status: 204 };
      },
    }),
    caughtBy: { 'cancel.unknown-order': 'FAIL' },
    // cancel.int64-exact cancels an unused id too.
    collateral: ['cancel.int64-exact'],
    // D10's GET on an unknown id is not routed through transition; malformed ids never reach it.
  },
  {
    name: 'malformed-id-crash',
    bug: 'crashes with 500 on every order id that is not an int64 integer (D9)',
    behaviour: broken({
      async cancelOrder(b, raw, store) {
        if (b.parseOrderId(b, raw) === null)
          return CORRECT.json(b, 500, { message: 'Internal Server Error' });
        return CORRECT.cancelOrder(b, raw, store);
      },
    }),
    caughtBy: {
      'cancel.malformed-id.letters': 'FAIL',
      'cancel.malformed-id.decimal': 'FAIL',
      'cancel.malformed-id.int64-overflow': 'FAIL',
      'cancel.malformed-id.int64-underflow': 'FAIL',
      'cancel.malformed-id.uint64-wrap': 'FAIL',
      'cancel.malformed-id.exponent': 'FAIL',
      'cancel.malformed-id.hex': 'FAIL',
      'cancel.malformed-id.trailing-letters': 'FAIL',
      'cancel.shipped-order.malformed-spellings': 'FAIL',
      'server-errors.none': 'FAIL',
    },
    // The fuzz phase's requests get the same broken answers.
    collateral: ['fuzz.invariants'],
  },
  {
    name: 'broken-escape-500',
    bug: 'decodes the path with decodeURIComponent unguarded: a broken percent escape (`%E0%A4%A`) is a 500 (§7)',
    behaviour: broken({
      async handle(b, request, store) {
        try {
          decodeURIComponent(request.path);
        } catch {
          return CORRECT.json(b, 500, { message: 'URIError: URI malformed' });
        }
        return CORRECT.handle(b, request, store);
      },
    }),
    caughtBy: { 'fuzz.invariants': 'FAIL' },
    says: [['fuzz.invariants', 'answered 500']],
  },
  {
    name: 'malformed-id-parseint',
    bug: 'reads order ids with parseInt, so `1.5` cancels order 1 (D9)',
    behaviour: broken({
      parseOrderId(_b, raw) {
        const n = Number.parseInt(raw, 10);
        return Number.isNaN(n) ? null : BigInt(n);
      },
    }),
    // Read-only too: `2abc` names shipped order 2 for parseInt, which answers 409 (D19).
    caughtBy: { 'cancel.malformed-id.decimal': 'FAIL', 'cancel.shipped-order.malformed-spellings': 'FAIL' },
    // Destructive: `7.5` aims at pending order 7, which parseInt cancels; the later forms (`7abc`) find it
    // cancelled (404). parseInt also rounds 9007199254740997 to the listed 9007199254740996.
    collateral: ['cancel.int64-exact'],
    caughtOnlyByCancelling: ['cancel.malformed-id.decimal'],
    says: [
      ['cancel.malformed-id.decimal', 'order 7 left the list after DELETE /store/orders/7.5 answered 204'],
      [
        'cancel.shipped-order.malformed-spellings',
        'DELETE /store/orders/2abc answered 409: the server read the malformed id "2abc" (a suffix) as shipped order 2',
      ],
      [
        'cancel.int64-exact',
        'order 9007199254740996 left the list after DELETE /store/orders/9007199254740997',
      ],
    ],
  },
  {
    name: 'malformed-id-wraps-uint64',
    bug: 'reduces order ids to 64 bits, so 2^64 + 1 cancels order 1 (D8, D9)',
    behaviour: broken({
      parseOrderId(b, raw) {
        if (!/^-?[0-9]+$/.test(raw)) return CORRECT.parseOrderId(b, raw);
        return BigInt.asIntN(64, BigInt(raw));
      },
    }),
    // `02` is all digits: read as shipped order 2, the same integer, refused with 409 (D9: a warning).
    caughtBy: {
      'cancel.malformed-id.uint64-wrap': 'FAIL',
      'cancel.shipped-order.malformed-spellings': 'WARN',
    },
    caughtOnlyByCancelling: ['cancel.malformed-id.uint64-wrap'],
  },
  {
    name: 'malformed-id-plain-text',
    bug: 'refuses malformed ids with 400 and a plain-text body (allowed by D9, but a warning)',
    behaviour: broken({
      async cancelOrder(b, raw, store) {
        if (b.parseOrderId(b, raw) === null) {
          return { status: 400, headers: { 'content-type': 'text/plain' }, body: 'bad id' };
        }
        return CORRECT.cancelOrder(b, raw, store);
      },
    }),
    caughtBy: { 'cancel.malformed-id.error-body': 'WARN' },
  },
  {
    name: 'ids-through-double',
    bug: 'parses path ids through a double (`Number(raw)`), so cancelling 9007199254740997 cancels 9007199254740996 (D8)',
    behaviour: broken({
      parseOrderId(b, raw) {
        const exact = CORRECT.parseOrderId(b, raw);
        return exact === null ? null : BigInt(Number(raw));
      },
    }),
    caughtBy: { 'cancel.int64-exact': 'FAIL' },
    says: [
      [
        'cancel.int64-exact',
        'order 9007199254740996 left the list after DELETE /store/orders/9007199254740997 answered 204',
      ],
    ],
  },
  {
    name: 'collateral-cancel',
    bug: 'a successful cancel also cancels the pending order placed last (an update whose filter is too wide: §3)',
    behaviour: broken({
      async cancelOrder(b, raw, store) {
        const reply = await CORRECT.cancelOrder(b, raw, store);
        if (!('raw' in reply) && reply.status === 204) {
          const last = store.orders.filter((o) => o.status === 'pending').at(-1);
          if (last) last.status = 'cancelled';
        }
        return reply;
      },
    }),
    caughtBy: { 'cancel.pending-order': 'FAIL', 'cancel.concurrent': 'FAIL' },
    says: [
      [
        'cancel.pending-order',
        'order 9007199254740996 left the list after DELETE /store/orders/3 answered 204',
      ],
      ['cancel.concurrent', 'order 9007199254740993 left the list after DELETE /store/orders/5'],
    ],
  },
  {
    name: 'cancel-noop-after-first',
    bug: 'answers 204 to every cancel after the first without cancelling (a write that is never saved: §3, D16)',
    behaviour: broken({
      async cancelOrder(b, raw, store) {
        const id = b.parseOrderId(b, raw);
        const order = id === null ? undefined : store.find(id);
        // Order 6 is seeded cancelled; any other cancelled order means the first cancel was saved.
        const saved = store.orders.some((o) => o.status === 'cancelled' && o.id !== 6n);
        if (saved && order?.status === 'pending') return { status: 204 };
        return CORRECT.cancelOrder(b, raw, store);
      },
    }),
    caughtBy: { 'cancel.concurrent': 'FAIL' },
    says: [
      [
        'cancel.concurrent',
        'order 5 is still listed unchanged after DELETE /store/orders/5 answered 204 and DELETE /store/orders/5 answered 204 and DELETE /store/orders/5 answered 204 and DELETE /store/orders/5 answered 204 and DELETE /store/orders/5 answered 204, although this server drops cancelled orders',
      ],
    ],
  },
  {
    name: 'cancel-shipped-succeeds',
    bug: 'cancels a shipped order with 204 (§3: shipped orders cannot be reversed)',
    behaviour: broken({
      async transition(b, order, id) {
        if (order?.status === 'shipped') order.status = 'pending';
        return CORRECT.transition(b, order, id);
      },
    }),
    caughtBy: { 'cancel.shipped-order': 'FAIL' },
    // The order it cancelled is not refused again either.
    collateral: ['cancel.shipped-order.again'],
  },
  {
    name: 'shipped-409-but-removed',
    bug: 'answers 409 for a shipped order but drops it from the list (§3: it stays shipped)',
    behaviour: broken({
      async transition(b, order, id) {
        const reply = await CORRECT.transition(b, order, id);
        if (order?.status === 'shipped') order.status = 'cancelled';
        return reply;
      },
    }),
    caughtBy: { 'cancel.shipped-order': 'FAIL' },
    // The order it dropped is then not found (404), not refused again.
    collateral: ['cancel.shipped-order.again'],
  },
  {
    name: 'shipped-409-plain-text',
    bug: 'answers 409 with a plain-text body (allowed by D3, but a warning)',
    behaviour: behaviour({ ...MOCK_LIKE_READINGS, shippedBody: 'text' }),
    caughtBy: { 'cancel.shipped-order.error-body': 'WARN' },
  },
  {
    name: 'cancel-200-with-body',
    bug: 'answers a successful cancel with 200 and the order instead of 204 (§4.2)',
    behaviour: broken({
      async transition(b, order, id) {
        const reply = await CORRECT.transition(b, order, id);
        return 'status' in reply && reply.status === 204
          ? CORRECT.json(b, 200, { id, complete: false })
          : reply;
      },
    }),
    caughtBy: { 'cancel.pending-order': 'FAIL' },
    collateral: ['cancel.concurrent'],
  },
  {
    name: 'cancel-204-framed',
    bug: 'answers a successful cancel 204 with `Content-Type: application/json` and `Content-Length: 2` (D24)',
    behaviour: broken({
      async transition(b, order, id) {
        const reply = await CORRECT.transition(b, order, id);
        if (!('status' in reply) || reply.status !== 204) return reply;
        return {
          raw: (_req, res) => {
            // Node drops a 204's body but keeps the headers: the client sees a framing of 2 bytes.
            res.writeHead(204, { 'content-type': 'application/json', 'content-length': '2' });
            res.end();
          },
        };
      },
    }),
    caughtBy: { 'cancel.pending-order': 'FAIL' },
    says: [['cancel.pending-order', '204 with Content-Length: 2: a 204 has no content (RFC 9110 §8.6, D24)']],
  },
  {
    name: 'cancel-204-typed',
    bug: 'answers a successful cancel 204 with `Content-Type: application/json` (D24: a warning)',
    behaviour: broken({
      async transition(b, order, id) {
        const reply = await CORRECT.transition(b, order, id);
        return 'status' in reply && reply.status === 204
          ? { status: 204, headers: { 'content-type': 'application/json' } }
          : reply;
      },
    }),
    caughtBy: { 'cancel.pending-order': 'WARN' },
    says: [
      ['cancel.pending-order', '204 with Content-Type: application/json, though it has no content (D24)'],
    ],
  },
  {
    name: 'recancel-204',
    bug: 'answers 204 again when a cancelled order is cancelled a second time (D2)',
    behaviour: broken({
      async transition(b, order, id) {
        return order?.status === 'cancelled' ? { status: 204 } : CORRECT.transition(b, order, id);
      },
    }),
    caughtBy: { 'cancel.repeat': 'FAIL' },
    collateral: ['cancel.concurrent'],
  },
  {
    name: 'cancel-race',
    bug: 'reads the order state, awaits, then writes it: simultaneous cancels both get 204, a lost update (§3)',
    behaviour: broken({
      async transition(b, order, id) {
        if (order?.status !== 'pending') return CORRECT.transition(b, order, id);
        await secondArrival(id);
        order.status = 'cancelled';
        return { status: 204 };
      },
    }),
    caughtBy: { 'cancel.concurrent': 'FAIL' },
  },
  {
    name: 'cancelled-comes-back',
    bug: 'a cancel is saved to a cache only: the order leaves the list, and comes back three list reads later (§3, D2, D16)',
    behaviour: cancelledComesBack(),
    caughtBy: { 'cancel.cancelled-stays-gone': 'FAIL' },
    says: [['cancel.cancelled-stays-gone', 'left the list, but the list shows it again']],
  },
  {
    name: 'list-cache-stale-after-cancel',
    bug: 'a list cache serves the list as it was before a successful cancel for one more read, then drops the order (D16: a stale read)',
    behaviour: (() => {
      let stale: Reply | null = null;
      return broken({
        listOrders(b, store) {
          const reply = stale ?? CORRECT.listOrders(b, store);
          stale = null;
          return reply;
        },
        async cancelOrder(b, raw, store) {
          const before = CORRECT.listOrders(b, store);
          const reply = await CORRECT.cancelOrder(b, raw, store);
          if ('status' in reply && reply.status === 204) stale = before;
          return reply;
        },
      });
    })(),
    caughtBy: { 'cancel.cancelled-stays-gone': 'FAIL' },
    says: [
      [
        'cancel.cancelled-stays-gone',
        'stale read: order 3 was listed unchanged right after its cancel succeeded',
      ],
    ],
  },
  {
    name: 'shipped-cancelled-on-retry',
    bug: 'refuses a shipped order with 409, but a second cancel of it succeeds with 204 (§3: shipped stays shipped)',
    behaviour: (() => {
      // Keyed by the order, not its id: each run's store has orders of its own.
      const refused = new WeakSet<TargetOrder>();
      return broken({
        async transition(b, order, id) {
          if (order?.status !== 'shipped') return CORRECT.transition(b, order, id);
          if (!refused.has(order)) {
            refused.add(order);
            return CORRECT.transition(b, order, id);
          }
          order.status = 'cancelled';
          return { status: 204 };
        },
      });
    })(),
    caughtBy: { 'cancel.shipped-order.again': 'FAIL' },
    says: [['cancel.shipped-order.again', 'was refused with 409']],
  },
  {
    name: 'key-refused-on-pets',
    bug: 'refuses the valid key with 401 on GET /pets/{petId} while accepting it on the orders (a second auth middleware with its own key list: §5)',
    behaviour: broken({
      async handle(b, request, store) {
        if (request.underV1 && request.path.startsWith('/pets/'))
          return b.error(b, 401, 'unauthorized', 'Missing or invalid API key.', {
            'www-authenticate': 'Bearer',
          });
        return CORRECT.handle(b, request, store);
      },
    }),
    caughtBy: { 'auth.same-key-everywhere': 'FAIL' },
    says: [['auth.same-key-everywhere', 'refused (401) on getPet']],
  },
  {
    name: 'list-read-writes',
    bug: 'every read of the list saves order 1 again with a new quantity (a read with a side effect, §4.1): no request names order 1, so the suite cannot tell the server from another client at work, and warns that the environment is live (D16)',
    behaviour: broken({
      listOrders(b, store) {
        const first = store.find(1n);
        if (first) first.quantity += 1;
        return CORRECT.listOrders(b, store);
      },
    }),
    caughtBy: { 'list.changed-by-others': 'WARN' },
    says: [['list.changed-by-others', 'live environment: ']],
  },
  {
    name: 'unknown-path-500',
    bug: 'crashes with 500 on an unknown path (D10: 5xx is always a failure)',
    behaviour: broken({
      unknownPath: (b) => CORRECT.json(b, 500, { code: 'internal', message: 'boom', status: 500 }),
    }),
    caughtBy: { 'server-errors.none': 'FAIL', 'routes.unknown-path': 'WARN' },
    // The fuzz phase's requests get the same broken answers.
    collateral: ['fuzz.invariants'],
  },
  {
    name: 'unknown-path-200',
    bug: 'answers unknown paths with 200 (a catch-all page; D10: a warning)',
    behaviour: broken({
      unknownPath: () => ({
        status: 200,
        headers: { 'content-type': 'text/html' },
        body: '<html>app</html>',
      }),
    }),
    caughtBy: { 'routes.unknown-path': 'WARN' },
  },
  {
    name: 'method-405-without-allow',
    bug: 'answers an unsupported method with 405 but no Allow header (D10: a warning)',
    behaviour: broken({
      unsupportedMethod: (b) => CORRECT.error(b, 405, 'method_not_allowed', 'Method not allowed.'),
    }),
    caughtBy: { 'routes.unsupported-method': 'WARN' },
  },
  {
    name: 'pets-without-deprecation',
    bug: 'serves the deprecated GET /pets/{petId} without Deprecation and Sunset headers (D11: a warning)',
    behaviour: broken({ getPet: (b) => CORRECT.json(b, 200, { id: 10, name: 'Rex' }) }),
    caughtBy: { 'pets.deprecation': 'WARN' },
  },
  {
    name: 'pets-deprecation-true',
    bug: 'sends `Deprecation: true`, an old draft form, instead of `@<epoch seconds>` (RFC 9745, D11: a warning)',
    behaviour: broken({
      getPet: (b) =>
        CORRECT.json(
          b,
          200,
          { id: 10, name: 'Rex' },
          { deprecation: 'true', sunset: 'Wed, 30 Jun 2027 00:00:00 GMT' },
        ),
    }),
    caughtBy: { 'pets.deprecation': 'WARN' },
  },
  {
    name: 'pets-deprecation-millis',
    bug: 'writes the Deprecation date in milliseconds, so it reads as later than the Sunset (D11: a warning)',
    behaviour: broken({
      getPet: (b) =>
        CORRECT.json(
          b,
          200,
          { id: 10, name: 'Rex' },
          { deprecation: '@1767225600000', sunset: 'Wed, 30 Jun 2027 00:00:00 GMT' },
        ),
    }),
    caughtBy: { 'pets.deprecation': 'WARN' },
    says: [['pets.deprecation', 'later than Sunset: Wed, 30 Jun 2027 00:00:00 GMT']],
  },
  {
    name: 'pets-sunset-not-http-date',
    bug: 'sends `Sunset: 2027-06-30`, an ISO date instead of an HTTP-date (RFC 8594, D11: a warning)',
    behaviour: broken({
      getPet: (b) =>
        CORRECT.json(b, 200, { id: 10, name: 'Rex' }, { deprecation: '@1767225600', sunset: '2027-06-30' }),
    }),
    caughtBy: { 'pets.deprecation': 'WARN' },
  },
];

/**
 * A server whose cancel is saved to a cache only: the order leaves the list at once, and three list
 * reads later the cache expires and the order is pending and listed again. Each run gets a fresh one.
 */
function cancelledComesBack(): Behaviour {
  const reverting = new Map<TargetOrder, number>();
  return broken({
    async transition(b, order, id) {
      const wasPending = order?.status === 'pending';
      const reply = await CORRECT.transition(b, order, id);
      if (order && wasPending) reverting.set(order, 3);
      return reply;
    },
    listOrders(b, store) {
      for (const [order, left] of reverting) {
        if (left > 1) reverting.set(order, left - 1);
        else {
          reverting.delete(order);
          order.status = 'pending';
        }
      }
      return CORRECT.listOrders(b, store);
    },
  });
}

/** The order a DELETE names, when it is in the given state (for the before-auth bugs). */
function shippedOrPendingTarget(
  b: Behaviour,
  request: { method: string; path: string },
  store: { find(id: bigint): { id: bigint; status: string } | undefined },
  status: 'shipped' | 'pending',
) {
  const match = /^\/store\/orders\/([^/]+)$/.exec(request.path);
  if (request.method !== 'DELETE' || match?.[1] === undefined) return undefined;
  const id = b.parseOrderId(b, match[1]);
  const order = id === null ? undefined : store.find(id);
  return order?.status === status ? (order as Parameters<Behaviour['transition']>[1]) : undefined;
}

/** Resolves when a second request for the same id arrives (or after 300 ms), so the race is certain. */
const waiting = new Map<bigint, () => void>();
function secondArrival(id: bigint): Promise<void> {
  const first = waiting.get(id);
  if (first) {
    waiting.delete(id);
    first();
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      waiting.delete(id);
      resolve();
    }, 300);
    waiting.set(id, () => {
      clearTimeout(timer);
      resolve();
    });
  });
}
