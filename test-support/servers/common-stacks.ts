/**
 * Correct servers as common stacks build them (issue 22): each is the reference server with one reading a
 * real stack gives where the interface is silent. The suite and the proxy must not fail any of them.
 */
import {
  type Behaviour,
  behaviour,
  CORRECT,
  createStore,
  MOCK_LIKE_READINGS,
  type Store,
  seedOrders,
} from './reference-server.js';

/**
 * Ids read as a PostgreSQL `::bigint` cast or `Number()` reads them: `02`, `+2`, `2.0`, `2e0`, `0x2` and ` 2`
 * are order 2 (D9: the same integer in another notation, a warning); `2abc`, `2.5` and `''` name nothing.
 */
export const SAME_INTEGER_IDS: Behaviour = behaviour(MOCK_LIKE_READINGS, {
  parseOrderId(b, raw) {
    const exact = CORRECT.parseOrderId(
      b,
      raw
        .trim()
        .replace(/^\+/, '')
        .replace(/^(-?)0+(?=\d)/, '$1'),
    );
    if (exact !== null) return exact;
    const n = Number(raw);
    return raw.trim() !== '' && Number.isSafeInteger(n) ? BigInt(n) : null;
  },
});

/**
 * express-openapi-validator's default (`allowUnknownQueryParameters: false`): a query parameter the document
 * does not declare is refused with 400 and the validator's own body, after authentication (D21).
 */
export const REFUSES_UNDECLARED_QUERY: Behaviour = behaviour(MOCK_LIKE_READINGS, {
  async handle(b, request, store) {
    const name = new URLSearchParams(request.query).keys().next().value;
    if (name === undefined || !b.authorized(b, request.authorization))
      return CORRECT.handle(b, request, store);
    const body = { message: `Unknown query parameter '${name}'`, errors: [{ path: `.query.${name}` }] };
    return b.json(b, 400, body);
  },
});

/** A deprecated read retired after its sunset: `GET /pets/{petId}` answers 410 Gone with an HTML page (D11). */
export const PETS_GONE: Behaviour = behaviour(MOCK_LIKE_READINGS, {
  getPet: () => ({ status: 410, headers: { 'content-type': 'text/html' }, body: '<h1>Gone</h1>' }),
});

/**
 * A background job ships pending order 24 while the suite's cancel of `abc` is in flight (D16): a change no
 * cancel can make. Shipping at that request, not on a timer, keeps the test free of timing.
 */
export function shipsOrderMidRun(): { behaviour: Behaviour; store: Store } {
  const store = createStore([...seedOrders(), { id: 24n, petId: 10n, quantity: 1, status: 'pending' }]);
  const shipping = behaviour(MOCK_LIKE_READINGS, {
    async cancelOrder(b, raw, s) {
      const order = s.find(24n);
      if (raw === 'abc' && order) order.status = 'shipped';
      return CORRECT.cancelOrder(b, raw, s);
    },
  });
  return { behaviour: shipping, store };
}
