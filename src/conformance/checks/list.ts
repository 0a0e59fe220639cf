/**
 * The list checks (§4.1): GET /store/orders answers valid Orders, exactly (D8), and lists every order named.
 */
import { parseExactJson } from '../../contract/index.js';
import { finding, is, judgeStatus, judgeSuccessBody, pass, skip, verdict } from '../../judge/rules.js';
import type { Check } from './check.js';

export const LIST_CHECKS: readonly Check[] = [
  {
    id: 'list.orders',
    title: 'GET /store/orders lists valid Orders',
    citation: '§4.1, D8, D15',
    level: 'failure',
    operationId: 'listOrders',
    sends: 'GET /store/orders with the key',
    passes:
      '200, application/json, a JSON array whose every element is a valid Order, checked losslessly (an id outside int64 fails; a valid id above 2^53 passes)',
    async run(ctx) {
      const { exchange } = await ctx.initialListing();
      const expected = '200, application/json, an array of valid Orders';
      const status = judgeStatus(exchange, ctx.key, is(200), expected);
      if (status || !exchange.outcome.ok) return verdict([status], '');
      const body = judgeSuccessBody(ctx.options.contract, exchange, ctx.key, 'listOrders', 'the list');
      if (body) return verdict([body], '');
      const parsed = parseExactJson(exchange.outcome.value.text);
      const orders = parsed.ok && Array.isArray(parsed.value) ? parsed.value : [];
      const big = orders.filter(
        (o) => typeof o === 'object' && o !== null && !Array.isArray(o) && typeof o.id === 'bigint',
      ).length;
      return pass(
        `${orders.length} order(s), all valid`,
        big > 0 ? [`${big} id(s) above 2^53 read exactly (D8)`] : [],
      );
    },
  },
  {
    id: 'list.includes-given-orders',
    title: 'every given order id is listed',
    citation: '§4.1',
    level: 'failure',
    operationId: 'listOrders',
    sends: 'GET /store/orders with the key (the same request as list.orders, before anything is cancelled)',
    passes:
      'every --pending-order and --shipped-order id appears in the list ("all orders placed in the store")',
    needs: { givenOrders: true },
    async run(ctx) {
      const listing = await ctx.initialListing();
      if (listing.ids === null) {
        return skip('GET /store/orders gave no usable list to look in (see list.orders)', null);
      }
      const given = [...ctx.options.pendingOrders, ...ctx.options.shippedOrders];
      const missing = given.filter((id) => !listing.ids?.has(id));
      return verdict(
        missing.map((id) =>
          finding(
            listing.exchange,
            ctx.key,
            `order ${id} (given with --${ctx.options.pendingOrders.includes(id) ? 'pending' : 'shipped'}-order) is not in the list`,
            `order ${id} listed`,
          ),
        ),
        `all ${given.length} given id(s) listed`,
      );
    },
  },
];
