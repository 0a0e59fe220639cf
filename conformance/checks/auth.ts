/**
 * The auth checks (§5, D6, D7): every documented operation refuses every way of not presenting the key
 * as a bearer token, and the key is checked before the order is looked up.
 */
import { contract } from '../../src/contract/index.js';
import type { CheckContext } from '../context.js';
import { type AuthHeader, NO_AUTH } from '../exchange.js';
import { is, judgeError, skip, verdict } from '../judge.js';
import type { Finding } from '../types.js';
import { type Check, cancel, EXPECT_401, statusOf, template, WRONG_KEY } from './check.js';
import { stillListed } from './listing-effects.js';

/** §5, D7: every way of not presenting the right key as a bearer token. `$KEY` is the real key. */
export const AUTH_VARIANTS: ReadonlyArray<{ name: string; label: string; auth: AuthHeader }> = [
  { name: 'no-header', label: 'no Authorization header', auth: NO_AUTH },
  {
    name: 'wrong-key',
    label: `a wrong key (\`Bearer ${WRONG_KEY}\`)`,
    auth: template(`Bearer ${WRONG_KEY}`),
  },
  { name: 'empty-bearer', label: 'an empty Bearer token', auth: template('Bearer ') },
  { name: 'basic-scheme', label: 'the right key under `Basic`', auth: template('Basic $KEY') },
  { name: 'token-scheme', label: 'the right key under `Token`', auth: template('Token $KEY') },
  { name: 'bare-key', label: 'the bare key without a scheme', auth: template('$KEY') },
];

/** The documented operations, each with a request that reaches it without changing state. */
const AUTH_TARGETS: ReadonlyArray<{
  operationId: string;
  describe: string;
  path: (ctx: CheckContext) => Promise<string>;
}> = [
  { operationId: 'listOrders', describe: 'GET /store/orders', path: async () => '/store/orders' },
  {
    operationId: 'cancelOrder',
    describe: 'DELETE /store/orders/{id} on an id that does not exist (401, not 404: D6)',
    path: async (ctx) => `/store/orders/${await ctx.unknownOrderId()}`,
  },
  {
    operationId: 'getPet',
    describe: 'GET /pets/{petId} (only judged when the target serves it or answers 401)',
    path: async (ctx) => `/pets/${encodeURIComponent((await ctx.petProbe()).petId)}`,
  },
];

const authVariantChecks: Check[] = AUTH_TARGETS.flatMap((target) =>
  AUTH_VARIANTS.map(
    (variant): Check => ({
      id: `auth.${target.operationId}.${variant.name}`,
      title: `${target.operationId} with ${variant.label} is refused`,
      citation: target.operationId === 'cancelOrder' ? '§5, D6, D7' : '§5, D7',
      level: 'failure',
      operationId: target.operationId,
      sends: `${target.describe} with ${variant.label}`,
      passes: EXPECT_401,
      async run(ctx) {
        const method = contract.operation(target.operationId).method.toUpperCase();
        const exchange = await ctx.request({ method, path: await target.path(ctx), auth: variant.auth });
        const result = judgeError(exchange, ctx.key, is(401), EXPECT_401);
        const status = statusOf(exchange);
        if (result && target.operationId === 'getPet' && status !== null && status !== 401) {
          const probe = await ctx.petProbe();
          if (probe.served !== 'yes') {
            return skip(
              `the target does not show that it serves the deprecated GET /pets/{petId} (it answered ${status} without a key; pet id from ${probe.source})`,
              '--pet-id ID',
            );
          }
        }
        return verdict([result], `401 with a valid Error body`);
      },
    }),
  ),
);

const authIdChecks: Check[] = [
  {
    id: 'auth.cancelOrder.shipped-order',
    title: 'cancelling a shipped order without a valid key is 401, not 409',
    citation: '§5, D6',
    level: 'failure',
    operationId: 'cancelOrder',
    sends: 'DELETE /store/orders/{shipped id} with no Authorization header, and again with a wrong key',
    passes: `${EXPECT_401}, for each`,
    needs: { shippedOrders: true },
    async run(ctx) {
      const findings: Array<Finding | null> = [];
      for (const id of ctx.options.shippedOrders) {
        for (const auth of [NO_AUTH, template(`Bearer ${WRONG_KEY}`)]) {
          findings.push(judgeError(await ctx.request(cancel(id, auth)), ctx.key, is(401), EXPECT_401));
        }
      }
      return verdict(findings, '401 before the order is looked up');
    },
  },
  {
    id: 'auth.cancelOrder.malformed-id',
    title: 'cancelling a malformed id without a key is 401, not 4xx of the id',
    citation: '§5, D6',
    level: 'failure',
    operationId: 'cancelOrder',
    sends: 'DELETE /store/orders/abc with no Authorization header',
    passes: EXPECT_401,
    async run(ctx) {
      const exchange = await ctx.request(cancel('abc', NO_AUTH));
      return verdict([judgeError(exchange, ctx.key, is(401), EXPECT_401)], '401 before the id is parsed');
    },
  },
  {
    id: 'auth.cancelOrder.pending-order',
    title: 'cancelling a pending order without a valid key is refused and changes nothing',
    citation: '§3, §5, D6',
    level: 'failure',
    operationId: 'cancelOrder',
    sends:
      'DELETE /store/orders/{pending id} with no Authorization header, and again with a wrong key; then GET /store/orders',
    passes: `${EXPECT_401}, for each, and the order is still listed. Destructive: a broken server would cancel the order, so it takes a pending id of its own`,
    needs: { destructive: true, pendingOrders: 1 },
    async run(ctx, [id]) {
      if (id === undefined) return skip('no pending id', '--pending-order ID');
      const findings: Array<Finding | null> = [];
      for (const auth of [NO_AUTH, template(`Bearer ${WRONG_KEY}`)]) {
        findings.push(judgeError(await ctx.request(cancel(id, auth)), ctx.key, is(401), EXPECT_401));
      }
      findings.push(...(await stillListed(ctx, [id], 'a refused cancel changes nothing')));
      return verdict(findings, `401 and order ${id} still listed`, [`used pending order ${id}`]);
    },
  },
];

export const AUTH_CHECKS: readonly Check[] = [...authVariantChecks, ...authIdChecks];
