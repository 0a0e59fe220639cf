/** The route checks (D10): requests outside the document are answered with 4xx, never 5xx. */
import { type RequestPlan, VALID_AUTH } from '../../judge/exchange.js';
import { is4xx, pass, verdict } from '../../judge/rules.js';
import { type Check, defineCheck, expectStatus, statusOf } from './check.js';

/** D10: an answer here is not held to the Error contract; these checks judge its status. */
function getWithKey(path: string): RequestPlan {
  return { method: 'GET', path, auth: VALID_AUTH, errorRule: null };
}

export const ROUTE_CHECKS: readonly Check[] = [
  defineCheck({
    id: 'routes.unknown-path',
    title: 'an unknown path is answered with 4xx',
    citation: 'D10',
    level: 'warning',
    sends: 'GET /conformance-no-such-path with the key',
    passes: '404 (any 4xx passes and is noted); 2xx is a warning; 5xx is a failure of server-errors.none',
    async run(ctx) {
      const exchange = await ctx.request(getWithKey('/conformance-no-such-path'));
      // A 5xx here is this check's warning too, besides server-errors.none's failure (D10).
      const answered = `answered ${statusOf(exchange)}`;
      return verdict([expectStatus(ctx, exchange, is4xx, '404 (D10)', ['route'])], answered, [answered]);
    },
  }),
  defineCheck({
    id: 'routes.unsupported-method',
    title: 'an undocumented method on an order path is answered with 404 or 405',
    citation: 'D10',
    level: 'warning',
    sends:
      'GET /store/orders/{id that does not exist} with the key (GET is safe; only DELETE is documented there)',
    passes:
      '405 with an Allow header, or 404 (any 4xx passes and is noted); 405 without Allow or 2xx is a warning',
    async run(ctx) {
      const id = await ctx.unknownOrderId();
      const exchange = await ctx.request(getWithKey(ctx.pathOf('cancelOrder', String(id))));
      const route = expectStatus(ctx, exchange, is4xx, '405 with Allow, or 404 (D10)', ['route']);
      const allow = exchange.outcome.ok ? exchange.outcome.value.headers.allow : undefined;
      const note = `answered ${statusOf(exchange)}${allow !== undefined ? ` (Allow: ${allow})` : ''}`;
      return route || !exchange.outcome.ok ? verdict([route], '') : pass(note, [note]);
    },
  }),
];
