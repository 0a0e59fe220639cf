/**
 * The cancel checks (§3, §4.2, D2, D9): unknown, malformed, shipped and pending orders, a repeat and a race.
 */
import { contract } from '../../src/contract/index.js';
import type { CheckContext } from '../context.js';
import { type Exchange, VALID_AUTH } from '../exchange.js';
import {
  finding,
  is,
  is4xx,
  type Judgement,
  judgeError,
  judgeErrorBody,
  judgeStatus,
  pass,
  skip,
  verdict,
} from '../judge.js';
import type { Finding } from '../types.js';
import { type Check, cancel, statusOf } from './check.js';
import { stillListed } from './listing-effects.js';

/** D9: order ids that are not int64 integers. Lenient parsers turn several into real ids. */
export const MALFORMED_IDS: ReadonlyArray<{ name: string; raw: string; about: string }> = [
  { name: 'letters', raw: 'abc', about: 'not a number' },
  { name: 'decimal', raw: '1.5', about: 'not an integer (parseInt reads 1)' },
  { name: 'int64-overflow', raw: '9223372036854775808', about: '2^63, one past the largest int64' },
  { name: 'int64-underflow', raw: '-9223372036854775809', about: 'one below the smallest int64' },
  {
    name: 'uint64-wrap',
    raw: '18446744073709551617',
    about: '2^64 + 1, which wraps to 1 in 64-bit arithmetic',
  },
  { name: 'exponent', raw: '1e3', about: 'exponent notation' },
  { name: 'hex', raw: '0x1A', about: 'hexadecimal' },
  { name: 'trailing-letters', raw: '12abc', about: 'digits then letters (parseInt reads 12)' },
];

const D9_RULE = { level: 'warning', source: 'D9' } as const;

export const CANCEL_CHECKS: readonly Check[] = [
  {
    id: 'cancel.unknown-order',
    title: 'cancelling an order that does not exist is 404',
    citation: '§4.2, §7',
    level: 'failure',
    operationId: 'cancelOrder',
    sends: 'DELETE /store/orders/{id} with the key, for an int64 id that is not in the list and not given',
    passes: '404 with an Error body whose status is 404',
    async run(ctx) {
      const id = await ctx.unknownOrderId();
      const exchange = await ctx.request(cancel(id));
      return verdict(
        [judgeError(exchange, ctx.key, is(404), '404 with an Error body')],
        '404 with a valid Error body',
        [`used unknown id ${id}`],
      );
    },
  },
  ...MALFORMED_IDS.map(
    (malformed): Check => ({
      id: `cancel.malformed-id.${malformed.name}`,
      title: `cancelling the malformed id \`${malformed.raw}\` is refused with 4xx`,
      citation: '§4.2, D9',
      level: 'failure',
      operationId: 'cancelOrder',
      sends: `DELETE /store/orders/${malformed.raw} with the key (${malformed.about})`,
      passes: '4xx (400, 404 and 422 all pass); never 2xx or 5xx',
      async run(ctx) {
        const exchange = await ctx.request(cancel(malformed.raw, VALID_AUTH, { errorRule: D9_RULE }));
        return verdict(
          [judgeStatus(exchange, ctx.key, is4xx, '4xx (400, 404 or 422: D9)')],
          `refused with ${statusOf(exchange)}`,
        );
      },
    }),
  ),
  {
    id: 'cancel.malformed-id.error-body',
    title: 'refusals of malformed ids carry an Error body',
    citation: '§7, D9',
    level: 'warning',
    operationId: 'cancelOrder',
    sends: 'nothing of its own: judges the 4xx answers to the cancel.malformed-id.* requests',
    passes: 'application/json, a valid Error whose status equals the HTTP status; a miss is a warning (D9)',
    sweep: true,
    async run(ctx) {
      return judgeRelaxed(ctx, 'D9', 'no malformed-id cancel was answered with 4xx in this run', null);
    },
  },
  {
    id: 'cancel.shipped-order',
    title: 'cancelling a shipped order is refused with 409 and the order stays',
    citation: '§3, §4.2',
    level: 'failure',
    operationId: 'cancelOrder',
    sends: 'DELETE /store/orders/{shipped id} with the key, for each --shipped-order; then GET /store/orders',
    passes: '409 for each, and each is still listed afterwards (shipped orders cannot be reversed)',
    needs: { shippedOrders: true },
    async run(ctx) {
      const ids = ctx.options.shippedOrders;
      const findings: Array<Finding | null> = [];
      for (const id of ids) {
        const exchange = await ctx.request(cancel(id));
        findings.push(judgeStatus(exchange, ctx.key, is(409), '409 (the order has shipped)'));
      }
      findings.push(...(await stillListed(ctx, ids, 'a shipped order stays shipped, §3')));
      return verdict(findings, `409 and still listed: ${ids.join(', ')}`);
    },
  },
  {
    id: 'cancel.shipped-order.error-body',
    title: '409 refusals carry an Error body',
    citation: '§7, D3',
    level: 'warning',
    operationId: 'cancelOrder',
    sends: 'nothing of its own: judges every 409 answer to a cancel in this run',
    passes: 'application/json, a valid Error whose status is 409; a non-Error body is a warning (D3)',
    sweep: true,
    async run(ctx) {
      return judgeRelaxed(ctx, 'D3', 'no cancel was answered with 409 in this run', '--shipped-order ID');
    },
  },
  {
    id: 'cancel.pending-order',
    title: 'cancelling a pending order succeeds with 204 and no body',
    citation: '§3, §4.2',
    level: 'failure',
    operationId: 'cancelOrder',
    sends: 'DELETE /store/orders/{pending id} with the key (consumes one pending order)',
    passes: '204 with an empty body',
    needs: { destructive: true, pendingOrders: 1 },
    async run(ctx, [id]) {
      if (id === undefined) return skip('no pending id', '--pending-order ID');
      const exchange = await ctx.request(cancel(id));
      const status = judgeStatus(exchange, ctx.key, is(204), '204 with no body');
      if (status || !exchange.outcome.ok) return verdict([status], '', [`used pending order ${id}`]);
      ctx.shared.set('cancelled', id);
      const body = contract.validateResponseBody('cancelOrder', 204, exchange.outcome.response.text);
      return verdict(
        [
          body.ok
            ? null
            : finding(exchange, ctx.key, '204 must have no body (§4.2)', '204 with no body', body.error),
        ],
        `order ${id} cancelled`,
        [`used pending order ${id}`],
      );
    },
  },
  {
    id: 'cancel.repeat',
    title: 'cancelling an order a second time is not 204',
    citation: '§3, D2',
    level: 'failure',
    operationId: 'cancelOrder',
    sends: 'DELETE /store/orders/{id} with the key again, for the order cancel.pending-order cancelled',
    passes: '404 or 409 (both readings of D2 pass); never 204',
    needs: { destructive: true },
    async run(ctx) {
      const id = ctx.shared.get('cancelled');
      if (typeof id !== 'string') {
        return skip(
          'needs the order that cancel.pending-order cancels in the same run, and it cancelled none',
          '--destructive --pending-order ID (with cancel.pending-order selected)',
        );
      }
      const exchange = await ctx.request(cancel(id));
      return verdict(
        [judgeStatus(exchange, ctx.key, is(404, 409), '404 or 409 (D2), not 204')],
        `answered ${statusOf(exchange)}`,
        [`re-cancelled order ${id}`],
      );
    },
  },
  {
    id: 'cancel.concurrent',
    title: 'two simultaneous cancels of one pending order give exactly one 204',
    citation: '§3, D2',
    level: 'failure',
    operationId: 'cancelOrder',
    sends: 'two DELETE /store/orders/{pending id} with the key at the same time (consumes one pending order)',
    passes: 'exactly one 204; the other 404 or 409',
    needs: { destructive: true, pendingOrders: 1 },
    async run(ctx, [id]) {
      if (id === undefined) return skip('no pending id', '--pending-order ID');
      const both = await Promise.all([ctx.request(cancel(id)), ctx.request(cancel(id))]);
      const notes = [`used pending order ${id}`];
      const broken = both.map((e) =>
        judgeStatus(e, ctx.key, is(204, 404, 409), '204 for one, 404 or 409 for the other'),
      );
      if (broken.some((f) => f !== null)) return verdict(broken, '', notes);
      const statuses = both.map(statusOf);
      const wins = statuses.filter((s) => s === 204).length;
      if (wins === 1) return pass(`answered ${statuses.join(' and ')}`, notes);
      const last = both[1] as Exchange;
      return verdict(
        [
          finding(
            last,
            ctx.key,
            `the two simultaneous cancels answered ${statuses.join(' and ')}: ${wins === 0 ? 'neither' : 'both'} succeeded`,
            'exactly one 204; the other 404 or 409',
          ),
        ],
        '',
        notes,
      );
    },
  },
];

/** The Error contract at warning level for the answers a decision relaxes (D3, D9). */
function judgeRelaxed(ctx: CheckContext, source: string, none: string, enableWith: string | null): Judgement {
  const judged = ctx.exchanges.filter(
    (e) => e.errorRule?.source === source && e.outcome.ok && is4xx(e.outcome.response.status),
  );
  if (judged.length === 0) return skip(none, enableWith);
  return verdict(
    judged.map((e) => judgeErrorBody(e, ctx.key, `an Error body (${source})`)),
    `${judged.length} answer(s), all valid Error bodies`,
  );
}
