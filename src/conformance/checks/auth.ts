/** The auth checks (§5, D6, D7): every way of not presenting the key is refused, before any lookup. */

import { type AuthHeader, NO_AUTH } from '../../judge/exchange.js';
import { schemeCaseFinding } from '../../judge/observer.js';
import { EXPECT_401, finding, is, type Judgement, skip, verdict } from '../../judge/rules.js';
import type { Finding } from '../../judge/types.js';
import type { CheckContext } from '../context.js';
import {
  type Check,
  cancel,
  cancelCheck,
  cancelEach,
  defineCheck,
  expect401,
  expectStatus,
  NO_UNUSED_ID,
  statusOf,
  template,
  WRONG_BEARER,
  WRONG_KEY,
} from './check.js';

type AuthVariant = { name: string; label: string; auth: AuthHeader };

export const AUTH_VARIANTS: readonly AuthVariant[] = [
  { name: 'no-header', label: 'no Authorization header', auth: NO_AUTH },
  { name: 'wrong-key', label: `a wrong key (\`Bearer ${WRONG_KEY}\`)`, auth: WRONG_BEARER },
  { name: 'empty-bearer', label: 'an empty Bearer token', auth: template('Bearer ') },
  { name: 'basic-scheme', label: 'the right key under `Basic`', auth: template('Basic $KEY') },
  { name: 'token-scheme', label: 'the right key under `Token`', auth: template('Token $KEY') },
  { name: 'bare-key', label: 'the bare key without a scheme', auth: template('$KEY') },
];

const AUTH_TARGETS: ReadonlyArray<{ operationId: string; describe: string }> = [
  { operationId: 'listOrders', describe: 'GET /store/orders' },
  {
    operationId: 'cancelOrder',
    describe: 'DELETE /store/orders/{id} on an id that the list shows does not exist (401, not 404: D6)',
  },
  {
    operationId: 'getPet',
    describe:
      'GET /pets/{petId} (judged when the target serves it, or answers 401 without a key: the path is behind authentication)',
  },
];

/** The operations these checks cover; `generic.ts` covers every other one. */
export const AUTH_COVERED: ReadonlySet<string> = new Set(AUTH_TARGETS.map((t) => t.operationId));

async function runVariant(ctx: CheckContext, operationId: string, variant: AuthVariant): Promise<Judgement> {
  if (operationId === 'getPet') return petVariant(ctx, variant);
  if (operationId === 'cancelOrder') {
    const id = await ctx.unknownOrderId();
    if (id === null) return skip(NO_UNUSED_ID, null);
    return refusedCancels(ctx, [id], [variant.auth], '401 with a valid Error body, and the list unchanged', [
      `used unknown id ${id}`,
    ]);
  }
  const exchange = await ctx.request({ method: 'GET', path: ctx.pathOf('listOrders'), auth: variant.auth });
  return verdict([expect401(ctx, exchange)], '401 with a valid Error body');
}

/** D10, D11: judged where the target serves pets or its keyless answer is 401; else a skip that says what was seen. */
async function petVariant(ctx: CheckContext, variant: AuthVariant): Promise<Judgement> {
  const probe = await ctx.petProbe();
  const exchange =
    variant.name === 'no-header'
      ? await ctx.petWithoutKey()
      : await ctx.request({ method: 'GET', path: ctx.pathOf('getPet', probe.petId), auth: variant.auth });
  const result = expect401(ctx, exchange);
  const status = statusOf(exchange);
  const notes = [`pet id ${probe.petId} (${probe.source})`];
  if (result === null || status === null || status === 401)
    return verdict([result], '401 with a valid Error body', notes);
  const keyless = probe.served === 'yes' ? null : statusOf(await ctx.petWithoutKey());
  if (keyless === 401) notes.push('the path is behind authentication: 401 without a key');
  if (probe.served === 'yes' || keyless === 401) return verdict([result], '', notes);
  const withKey = probe.exchange ? statusOf(probe.exchange) : null;
  return skip(
    `not judged: the target does not show that it serves GET /pets/{petId} or checks a key there: ${
      withKey === null
        ? 'no pet id to ask with the key'
        : `with the key it answered ${withKey} without a Deprecation header`
    }, without a key ${keyless ?? 'nothing'}, and with ${variant.label} ${status} (pet id ${probe.petId}: ${probe.source})`,
    '--pet-id ID',
  );
}

const authVariantChecks: Check[] = AUTH_TARGETS.flatMap((target) =>
  AUTH_VARIANTS.map((variant) =>
    defineCheck({
      id: `auth.${target.operationId}.${variant.name}`,
      title: `${target.operationId} with ${variant.label} is refused`,
      citation: target.operationId === 'cancelOrder' ? '§5, D6, D7' : '§5, D7',
      operationId: target.operationId,
      sends: `${target.describe} with ${variant.label}${target.operationId === 'cancelOrder' ? ', then GET /store/orders' : ''}`,
      passes: target.operationId === 'cancelOrder' ? `${EXPECT_401}, and no order changed` : EXPECT_401,
      run: (ctx) => runVariant(ctx, target.operationId, variant),
    }),
  ),
);

/** Cancels of `ids` with each of `auths`, each expected 401 with the list unchanged (§5, D6). */
async function refusedCancels(
  ctx: CheckContext,
  ids: readonly string[],
  auths: readonly AuthHeader[],
  passMessage: string,
  notes: string[] = [],
): Promise<Judgement> {
  const plans = ids.flatMap((id) => auths.map((auth) => cancel(ctx, id, { auth })));
  const step = await cancelEach(ctx, plans, (e) => expect401(ctx, e), true);
  return verdict(step.findings, passMessage, [...notes, ...step.notes]);
}

const BAD_KEYS = [NO_AUTH, WRONG_BEARER];

const authIdChecks: Check[] = [
  cancelCheck({
    id: 'auth.cancelOrder.shipped-order',
    title: 'cancelling a shipped order without a valid key is 401, not 409',
    citation: '§5, D6',
    sends:
      'DELETE /store/orders/{shipped id} with no Authorization header, and again with a wrong key; GET /store/orders after each',
    passes: `${EXPECT_401}, for each, and no order changed`,
    needs: { shippedOrders: true },
    run: (ctx) =>
      refusedCancels(ctx, ctx.options.shippedOrders, BAD_KEYS, '401 before the order is looked up'),
  }),
  cancelCheck({
    id: 'auth.cancelOrder.malformed-id',
    title: 'cancelling a malformed id without a key is 401, not 4xx of the id',
    citation: '§5, D6',
    sends: 'DELETE /store/orders/abc with no Authorization header, then GET /store/orders',
    passes: `${EXPECT_401}, and no order changed`,
    run: (ctx) => refusedCancels(ctx, ['abc'], [NO_AUTH], '401 before the id is parsed'),
  }),
  cancelCheck({
    id: 'auth.cancelOrder.pending-order',
    title: 'cancelling a pending order without a valid key is refused and changes nothing',
    citation: '§3, §5, D6',
    sends:
      'DELETE /store/orders/{pending id} with no Authorization header, and again with a wrong key; GET /store/orders after each',
    passes: `${EXPECT_401}, for each, and no order changed. Destructive: a broken server would cancel the order, so it takes a pending id of its own`,
    needs: { destructive: true, pendingOrders: 1 },
    async run(ctx, [id]) {
      if (id === undefined) return skip('no pending id', '--pending-order ID');
      return refusedCancels(ctx, [id], BAD_KEYS, `401 and order ${id} still listed`, [
        `used pending order ${id}`,
      ]);
    },
  }),
];

/** D7: a refusal under `bearer` is a warning (RFC 9110 §11.1), as the observer's `state.scheme-case`. */
const schemeCase = defineCheck({
  id: 'auth.scheme-case',
  title: 'the key under a lower-case `bearer` scheme is accepted as under `Bearer`',
  citation: 'D7, RFC 9110 §11.1',
  level: 'warning',
  operationId: 'listOrders',
  sends: 'GET /store/orders with the right key under `bearer` (lower case)',
  passes:
    'the 200 the key gets under `Bearer`: scheme names are case-insensitive (RFC 9110 §11.1); a 401 is a warning (D7)',
  async run(ctx) {
    const listing = await ctx.initialListing();
    const exact = statusOf(listing.exchange);
    if (exact !== 200) {
      return skip(
        `GET ${listing.exchange.path} with the key under \`Bearer\` answered ${exact ?? 'nothing'}, not 200: there is no acceptance to compare with`,
        null,
      );
    }
    const exchange = await ctx.request({ ...listing.exchange.plan, auth: template('bearer $KEY') });
    if (statusOf(exchange) === 401) {
      const refused = schemeCaseFinding('bearer', exchange.seq, listing.exchange.seq);
      return verdict([finding(exchange, ctx.key, refused.message, refused.expected)], '');
    }
    return verdict(
      [expectStatus(ctx, exchange, is(200), '200, as under `Bearer` (RFC 9110 §11.1)', [])],
      'accepted under `bearer`',
    );
  },
});

/** D7: near misses of the key, described and never printed, that a prefix or case-blind compare accepts. */
function nearMisses(key: string, list: string): Array<{ label: string; path: string; auth: AuthHeader }> {
  const last = key.at(-1) ?? '';
  const swapped = [...key].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('');
  const tokens: Array<[string, string]> = [
    ['the key without its last character (a prefix)', key.slice(0, -1)],
    ['the key with one character added (an extension)', `${key}0`],
    ['the key with its last character changed', `${key.slice(0, -1)}${last === 'a' ? 'b' : 'a'}`],
    ['the key with its case changed', swapped],
    ['the key with spaces around it inside the token (`%20`)', `%20${key}%20`],
  ];
  // A one-character key has no prefix, and a key without letters no other case.
  const bearers = tokens
    .filter(([, token]) => token !== '' && token !== key)
    .map(([label, token]) => ({ label, path: list, auth: template(`Bearer ${token}`) }));
  const inQuery = ['api_key', 'access_token'].map((name) => ({
    label: `the key only in the query string (\`?${name}=\`), no Authorization header`,
    path: `${list}?${name}=${encodeURIComponent(key)}`,
    auth: NO_AUTH,
  }));
  return [...bearers, ...inQuery];
}

const nearMissKeys = defineCheck({
  id: 'auth.near-miss-keys',
  title: 'near misses of the key and the key in the query string are refused',
  citation: '§5, D7',
  operationId: 'listOrders',
  sends:
    'GET /store/orders with near misses of the key as a Bearer token: a prefix, an extension, one character changed, its case changed, spaces around it inside the token (`%20`); and with the key only in the query string (`?api_key=`, `?access_token=`)',
  passes: `${EXPECT_401} for each: only the exact key as a bearer token is the key`,
  async run(ctx) {
    const findings: Array<Finding | null> = [];
    const misses = nearMisses(ctx.key, ctx.pathOf('listOrders'));
    for (const miss of misses) {
      const exchange = await ctx.request({ method: 'GET', path: miss.path, auth: miss.auth });
      const status = statusOf(exchange);
      findings.push(
        status !== null && status >= 200 && status < 300
          ? finding(
              exchange,
              ctx.key,
              `GET ${exchange.path.split('?')[0]} with ${miss.label} answered ${status}: the server accepted a key that is not the key (D7)`,
              EXPECT_401,
            )
          : expect401(ctx, exchange, `${EXPECT_401} (${miss.label})`),
      );
    }
    return verdict(findings, `${misses.length} near misses refused with 401`);
  },
});

/** §5 across operations: the answers the key got everywhere in the run, judged by the observer. */
const authConsistency = defineCheck({
  id: 'auth.same-key-everywhere',
  title: 'the key is accepted on every operation, or on none',
  citation: '§5',
  sends:
    'nothing of its own: compares what the key got on each operation in the run (the cross-request observer)',
  passes:
    'no operation refuses the key with 401 (and never accepts it) while another accepts it; a 404 of a path that is not served shows nothing',
  sweep: true,
  async run(ctx) {
    const broken = ctx.observations.filter((o) => o.rule === 'state.key-inconsistent');
    const withKey = new Set(
      ctx.exchanges
        .filter((e) => e.plan.auth.kind === 'valid' && e.operationId !== null && e.outcome.ok)
        .map((e) => e.operationId),
    );
    if (withKey.size < 2) return skip('the key was sent to fewer than two operations in this run', null);
    return verdict(
      broken.map((o) => finding(o.exchange, ctx.key, o.message, o.expected)),
      `the key was answered alike on ${withKey.size} operations`,
    );
  },
});

export const AUTH_CHECKS: readonly Check[] = [
  ...authVariantChecks,
  ...authIdChecks,
  schemeCase,
  nearMissKeys,
  authConsistency,
];
