/**
 * The servers the proxy's proofs run behind it: the suite's broken servers whose bug shows in the scripted
 * traffic, each with the proxy check that must catch it, and servers of the proxy's own for the rules
 * that span requests (a rounding id parser). A bug the proxy cannot see from traffic alone (a wrong key
 * accepted, a list that hides orders it never showed) is the conformance suite's alone; docs/proxy.md
 * says which.
 */
import { BROKEN_SERVERS } from '../servers/broken-servers.js';
import {
  type Behaviour,
  behaviour,
  CORRECT,
  MOCK_LIKE_READINGS,
  type Store,
} from '../servers/reference-server.js';

export interface BrokenUpstream {
  name: string;
  bug: string;
  behaviour: Behaviour;
  /** Proxy checks that must report it, FAIL or WARN (report.ts's check ids). */
  caughtBy: Record<string, 'FAIL' | 'WARN'>;
  /** Other checks that may fail from the same bug. */
  collateral?: string[];
}

function suite(
  name: string,
  caughtBy: BrokenUpstream['caughtBy'],
  collateral: string[] = [],
): BrokenUpstream {
  const server = BROKEN_SERVERS.find((s) => s.name === name);
  if (!server) throw new Error(`no broken server ${name} in test-support/servers`);
  return { name, bug: server.bug, behaviour: server.behaviour, caughtBy, collateral };
}

const ROUNDED = 9007199254740992n;

/** Reads path ids through a double; its store also holds 2^53, where 2^53 + 1 lands. */
const roundsPathIds: Behaviour = behaviour(MOCK_LIKE_READINGS, {
  parseOrderId(b, raw) {
    const exact = CORRECT.parseOrderId(b, raw);
    return exact === null ? null : BigInt(Number(exact));
  },
  async handle(b, request, store) {
    if (!store.find(ROUNDED)) store.orders.push({ id: ROUNDED, petId: 10n, quantity: 1, status: 'pending' });
    return CORRECT.handle(b, request, store);
  },
});

/** Writes its bodies through JSON.stringify of doubles, so 2^53 + 1 is listed as 2^53. */
const roundsJsonIds: Behaviour = behaviour(MOCK_LIKE_READINGS, {
  json(b, status, body, headers = {}) {
    const rounded = JSON.stringify(body, (_k, v) => (typeof v === 'bigint' ? Number(v) : v));
    return { status, headers: { 'content-type': b.readings.contentType, ...headers }, body: rounded };
  },
});

/** Refuses to cancel pending order 3 as if it had shipped. */
const refusesPending: Behaviour = behaviour(MOCK_LIKE_READINGS, {
  async transition(b, order, id) {
    if (id === 3n && order?.status === 'pending')
      return CORRECT.error(b, 409, 'order_already_shipped', 'Shipped.');
    return CORRECT.transition(b, order, id);
  },
});

/** Cannot find orders above 2^53 although it lists them. */
const losesBigIds: Behaviour = behaviour(MOCK_LIKE_READINGS, {
  async transition(b, order, id) {
    if (id > 2n ** 53n) return CORRECT.error(b, 404, 'order_not_found', `No order has id ${id}.`);
    return CORRECT.transition(b, order, id);
  },
});

/** A server correct but for what it also does to its store after each successful cancel. */
function afterCancel(effect: (store: Store) => void): Behaviour {
  return behaviour(MOCK_LIKE_READINGS, {
    async handle(b, request, store) {
      const reply = await CORRECT.handle(b, request, store);
      if (request.method === 'DELETE' && 'status' in reply && reply.status === 204) effect(store);
      return reply;
    },
  });
}

/** A cancel of a pending order cancels order 7 too. */
const collateralCancel = afterCancel((store) => {
  const seven = store.find(7n);
  if (seven) seven.status = 'cancelled';
});

/** A cancel changes another order's quantity. */
const touchesOthers = afterCancel((store) => {
  const one = store.find(1n);
  if (one) one.quantity += 1;
});

export const BROKEN_UPSTREAMS: readonly BrokenUpstream[] = [
  suite('list-id-outside-int64', { 'exchange.body': 'FAIL' }),
  suite('list-text-plain', { 'exchange.body': 'FAIL' }),
  suite('auth-missing-header-allowed', { 'exchange.auth': 'FAIL' }),
  suite('auth-empty-token-allowed', { 'exchange.auth': 'FAIL' }),
  suite('auth-refuses-lowercase-bearer', { 'state.scheme-case': 'WARN' }),
  suite('auth-401-plain-text', { 'exchange.auth': 'FAIL' }),
  suite('error-status-field-wrong', { 'exchange.error-body': 'FAIL' }),
  suite('errors-problem-json', { 'exchange.error-body': 'FAIL' }),
  suite('recancel-404-not-error', { 'exchange.error-body': 'FAIL' }),
  suite('auth-after-lookup', { 'exchange.auth': 'FAIL' }),
  suite('auth-skipped-for-pending', { 'exchange.auth': 'FAIL' }, []),
  suite('malformed-id-crash', { 'exchange.server-error': 'FAIL' }),
  suite('malformed-id-parseint', { 'exchange.status': 'FAIL' }),
  suite('malformed-id-plain-text', { 'exchange.error-body.warning': 'WARN' }),
  suite('cancel-shipped-succeeds', { 'state.204-on-complete': 'WARN' }),
  suite('shipped-409-but-removed', { 'state.refused-then-gone': 'FAIL' }),
  suite('shipped-409-plain-text', { 'exchange.error-body.warning': 'WARN' }),
  suite('cancel-200-with-body', { 'exchange.status': 'FAIL' }),
  suite('recancel-204', { 'state.second-204': 'FAIL' }),
  suite('cancelled-comes-back', { 'state.cancelled-returns': 'FAIL' }),
  suite('shipped-cancelled-on-retry', { 'state.cancel-after-refusal': 'FAIL' }, [
    'state.cancelled-unlisted',
    'state.refused-then-gone',
  ]),
  suite('key-refused-on-pets', { 'state.key-inconsistent': 'FAIL' }),
  suite('unknown-path-500', { 'exchange.server-error': 'FAIL' }),
  suite('unknown-path-200', { 'exchange.route': 'WARN' }),
  suite('method-405-without-allow', { 'exchange.route': 'WARN' }),
  suite('pets-without-deprecation', { 'exchange.headers': 'WARN' }),
  suite('pets-deprecation-true', { 'exchange.headers': 'WARN' }),
  {
    name: 'rounds-path-ids',
    bug: 'reads path ids through a double: cancelling 9007199254740993 cancels 9007199254740992 (D8)',
    behaviour: roundsPathIds,
    caughtBy: { 'state.cancelled-still-listed': 'FAIL' },
  },
  {
    name: 'rounds-json-ids',
    bug: 'writes ids through doubles: 9007199254740993 is listed as 9007199254740992 (D8)',
    behaviour: roundsJsonIds,
    caughtBy: { 'state.cancelled-unlisted': 'FAIL' },
  },
  {
    name: 'cancel-refuses-pending',
    bug: 'refuses to cancel pending order 3 with 409, as if it had shipped (§3)',
    behaviour: refusesPending,
    caughtBy: { 'state.409-on-pending': 'WARN' },
  },
  {
    name: 'loses-big-ids',
    bug: 'lists order 9007199254740993 but answers 404 to its cancel (D8)',
    behaviour: losesBigIds,
    caughtBy: { 'state.404-on-listed': 'WARN' },
  },
  {
    name: 'collateral-cancel',
    bug: 'cancelling one pending order cancels order 7 too (§3)',
    behaviour: collateralCancel,
    caughtBy: { 'state.vanished': 'WARN' },
  },
  {
    name: 'cancel-touches-others',
    bug: "cancelling an order changes order 1's quantity (§4.1)",
    behaviour: touchesOthers,
    caughtBy: { 'state.changed': 'WARN' },
  },
];
