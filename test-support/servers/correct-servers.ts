/**
 * Correct servers that read the open points differently. The suite must report no failure on any of
 * them; where a reading is worse practice but allowed (D3, D9 bodies), it reports a warning.
 */
import { type Behaviour, behaviour, CORRECT, MOCK_LIKE_READINGS } from './reference-server.js';

export interface CorrectServer {
  name: string;
  /** Its readings, in words. */
  readings: string;
  behaviour: Behaviour;
  /** Checks that may only WARN on it (allowed readings that are worse practice). */
  warns: string[];
  /** Checks skipped on it beyond pets.deprecation on a server that no longer serves pets, with why. */
  skips?: string[];
  /** Notes the run must show, proving the reading was exercised: [check id, text in its notes/message]. */
  shows: Array<[string, string]>;
}

export const CORRECT_SERVERS: readonly CorrectServer[] = [
  {
    name: 'mock-like',
    readings:
      'D2 re-cancel 404; D3 Error 409 body; D9 malformed id 404 Error; D10 405 with Allow; D11 pets served',
    behaviour: behaviour(MOCK_LIKE_READINGS),
    warns: [],
    shows: [
      ['cancel.repeat', 'answered 404'],
      ['cancel.pending-order', 'this server drops a cancelled order from the list (D2)'],
      ['cancel.int64-exact', 'sent 9007199254740997, which a double reads as listed order 9007199254740996'],
      ['cancel.malformed-id.decimal', 'sent 7.5: a lenient parser reads it as pending order 7'],
      ['cancel.malformed-id.letters', 'refused with 404'],
      ['routes.unsupported-method', 'answered 405 (Allow: DELETE)'],
    ],
  },
  {
    name: 'strict-validator',
    readings:
      'D2 re-cancel 409 (Error); D3 Error 409 body; D9 malformed id 400 Error; D10 405 with Allow; D11 pets served; charset parameter on every body',
    behaviour: behaviour({
      recancel: 409,
      shippedBody: 'error',
      malformed: { status: 400, body: 'error' },
      unsupportedMethod: 405,
      servesPets: true,
      contentType: 'application/json; charset=utf-8',
    }),
    warns: [],
    shows: [
      ['cancel.repeat', 'answered 409'],
      ['cancel.malformed-id.decimal', 'refused with 400'],
    ],
  },
  {
    name: 'keeps-cancelled-listed',
    readings: 'D16 a cancelled order stays in the list; D2 re-cancel 409 (Error); otherwise as the mock',
    behaviour: behaviour(
      { ...MOCK_LIKE_READINGS, recancel: 409 },
      {
        listOrders(b, store) {
          const listed = store.orders.map((o) => ({
            id: o.id,
            petId: o.petId,
            quantity: o.quantity,
            complete: o.status === 'shipped',
          }));
          return b.json(b, 200, listed);
        },
      },
    ),
    warns: [],
    shows: [
      ['cancel.pending-order', 'this server keeps a cancelled order in the list (allowed, D16)'],
      ['cancel.repeat', 'answered 409'],
    ],
  },
  {
    name: 'framework-defaults',
    readings:
      'D2 re-cancel 409; D3 plain-text 409 body (warning); D9 malformed id 422 with a framework body (warning); D10 404 for unsupported methods and an HTML 404 page for unknown paths; D11 pets no longer served',
    behaviour: behaviour(
      {
        recancel: 409,
        shippedBody: 'text',
        malformed: { status: 422, body: 'other' },
        unsupportedMethod: 404,
        servesPets: false,
        contentType: 'application/json',
      },
      {
        unknownPath: () => ({
          status: 404,
          headers: { 'content-type': 'text/html' },
          body: '<h1>Not Found</h1>',
        }),
      },
    ),
    warns: ['cancel.shipped-order.error-body', 'cancel.malformed-id.error-body'],
    shows: [
      ['cancel.repeat', 'answered 409'],
      ['cancel.malformed-id.int64-overflow', 'refused with 422'],
      ['routes.unsupported-method', 'answered 404'],
    ],
  },
  {
    name: 'pets-unrouted',
    readings:
      'D10, D11 GET /pets/{petId} no longer routed: a 404 Error for every key, before authentication (the router knows no such path); D16 a cancelled order stays in the list; otherwise as the mock',
    behaviour: behaviour(
      { ...MOCK_LIKE_READINGS, servesPets: false, recancel: 409 },
      {
        async handle(b, request, store) {
          if (request.underV1 && request.path.startsWith('/pets/'))
            return b.error(b, 404, 'not_found', 'No such path.');
          return CORRECT.handle(b, request, store);
        },
        listOrders(b, store) {
          const listed = store.orders.map((o) => ({
            id: o.id,
            petId: o.petId,
            quantity: o.quantity,
            complete: o.status === 'shipped',
          }));
          return b.json(b, 200, listed);
        },
      },
    ),
    warns: [],
    skips: [
      'auth.getPet.no-header',
      ...['wrong-key', 'empty-bearer', 'basic-scheme', 'token-scheme', 'bare-key'].map(
        (v) => `auth.getPet.${v}`,
      ),
    ],
    shows: [
      ['auth.getPet.no-header', 'without a key 404'],
      ['cancel.pending-order', 'this server keeps a cancelled order in the list (allowed, D16)'],
      ['cancel.cancelled-stays-gone', 'no cancelled order came back'],
    ],
  },
];
