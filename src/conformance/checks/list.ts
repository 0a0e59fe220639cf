/** The list checks (§4.1): GET /store/orders lists valid Orders, read exactly (D8), and every order named. */
import { parseExactJson } from '../../contract/index.js';
import { finding, is, pass, skip, verdict } from '../../judge/rules.js';
import { type Check, defineCheck, expectStatus } from './check.js';

export const LIST_CHECKS: readonly Check[] = [
  defineCheck({
    id: 'list.orders',
    title: 'GET /store/orders lists valid Orders',
    citation: '§4.1, D8, D15',
    operationId: 'listOrders',
    sends: 'GET /store/orders with the key',
    passes:
      '200, application/json, a JSON array whose every element is a valid Order, checked losslessly (an id outside int64 fails; a valid id above 2^53 passes)',
    async run(ctx) {
      const { exchange } = await ctx.initialListing();
      const expected = '200, application/json, an array of valid Orders';
      const broken = expectStatus(ctx, exchange, is(200), expected, ['body']);
      if (broken || !exchange.outcome.ok) return verdict([broken], '');
      const parsed = parseExactJson(exchange.outcome.value.text);
      const orders: unknown[] = parsed.ok && Array.isArray(parsed.value) ? parsed.value : [];
      const big = orders.filter((o) => typeof (o as { id?: unknown } | null)?.id === 'bigint').length;
      return pass(
        `${orders.length} order(s), all valid`,
        big > 0 ? [`${big} id(s) above 2^53 read exactly (D8)`] : [],
      );
    },
  }),
  defineCheck({
    id: 'list.includes-given-orders',
    title: 'every given order id is listed',
    citation: '§4.1',
    operationId: 'listOrders',
    sends: 'GET /store/orders with the key (the same request as list.orders, before anything is cancelled)',
    passes:
      'every --pending-order and --shipped-order id appears in the list ("all orders placed in the store")',
    needs: { givenOrders: true },
    async run(ctx) {
      const listing = await ctx.initialListing();
      if (listing.ids === null)
        return skip('GET /store/orders gave no usable list to look in (see list.orders)', null);
      const given = [...ctx.options.pendingOrders, ...ctx.options.shippedOrders];
      // A named pending order that a destructive rerun finds already cancelled is the setup's matter.
      const stale = [...ctx.stalePending.keys()];
      const missing = given.filter((id) => !listing.ids?.has(id) && !stale.includes(id));
      const notes = stale.map(
        (id) =>
          `order ${id} is no longer pending (cancelled by an earlier run?): not listed, and its cancel was refused; name a fresh pending order`,
      );
      return verdict(
        missing.map((id) =>
          finding(
            listing.exchange,
            ctx.key,
            `order ${id} (given with --${ctx.options.pendingOrders.includes(id) ? 'pending' : 'shipped'}-order) is not in the list`,
            `order ${id} listed`,
          ),
        ),
        stale.length === 0
          ? `all ${given.length} given id(s) listed`
          : `the ${given.length - stale.length} given id(s) still current are listed`,
        notes,
      );
    },
  }),
  defineCheck({
    id: 'list.changed-by-others',
    title: "orders change only by the suite's own requests, or the run says another client is at work",
    citation: '§4.1, D16',
    level: 'warning',
    operationId: 'listOrders',
    sends:
      'GET /store/orders twice before the checks (--live-probe apart) and once before every cancel; judges every list read of the run',
    passes:
      'no order that no request of the suite named (exactly or under a lenient reading) changed, appeared or left the list. Another client at work is a warning for each such change (shared mode), and a failure with --sole-client',
    sweep: true,
    async run(ctx) {
      const listing = await ctx.initialListing();
      if (listing.ids === null) {
        return skip(
          'the list was not read in full (see list.orders), so no change to it could be seen',
          null,
        );
      }
      const { changes, changesByOthers: count } = ctx.environment;
      const strict = ctx.options.environment === 'sole-client';
      const [why, expected] = strict
        ? [', and --sole-client says no other client uses this server', ' (--sole-client, D16)']
        : [': another client may have made the change', ', unless another client changed them (D16)'];
      const judged = verdict(
        changes.map((c) =>
          finding(
            c.exchange,
            ctx.key,
            `${c.what} with no request of the suite naming it${why}`,
            `orders nobody touched listed unchanged${expected}`,
          ),
        ),
        'no order changed that a request of the suite did not name',
        count > changes.length ? [`${count - changes.length} more change(s) counted, not listed`] : [],
        strict ? 'failure' : 'warning',
      );
      if (judged.kind !== 'violation') return judged;
      const seen = `live environment: ${count} change${count === 1 ? '' : 's'} by other clients seen`;
      return { ...judged, message: `${seen}; ${judged.message}` };
    },
  }),
];
