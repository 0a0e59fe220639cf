/**
 * The conformance checks, as data: each names the rule it enforces (a section of the interface spec or
 * a product decision), its level, what it sends and what passes. The families (auth variants on every
 * operation, malformed ids) are tables expanded into one check per row, in the manner of Prism's
 * test-harness scenarios. docs/conformance.md lists the same table; a test keeps the two in step.
 */
import { contract } from '../src/contract/index.js';
import type { CheckContext } from './context.js';
import { type AuthHeader, type Exchange, NO_AUTH, type RequestPlan, VALID_AUTH } from './exchange.js';
import {
  finding,
  is,
  is4xx,
  isJsonMediaType,
  type Judgement,
  judgeError,
  judgeErrorBody,
  judgeStatus,
  pass,
  skip,
  verdict,
} from './judge.js';
import type { Finding, Level } from './types.js';

/** What a check needs beyond a reachable target; without it the check is a SKIP that says so. */
export interface Requirements {
  /** It cancels pending orders: runs only with `--destructive`. */
  destructive?: boolean;
  /** How many pending order ids of its own it consumes. */
  pendingOrders?: number;
  /** It needs at least one `--shipped-order`. */
  shippedOrders?: boolean;
  /** It needs at least one `--pending-order` or `--shipped-order`. */
  givenOrders?: boolean;
}

export interface Check {
  id: string;
  title: string;
  /** Section of the interface spec (§) and/or product decision (D) it enforces. */
  citation: string;
  level: Level;
  operationId: string | null;
  /** What it sends, in words (reports and docs). */
  sends: string;
  /** What passes, in words. */
  passes: string;
  needs?: Requirements;
  /** Judges every exchange of the run after the other checks, instead of sending its own. */
  sweep?: boolean;
  run(ctx: CheckContext, pendingIds: readonly string[]): Promise<Judgement>;
}

const WRONG_KEY = 'petstore-conformance-wrong-key';
const EXPECT_401 = '401 with an Error body whose status is 401';

function template(text: string): AuthHeader {
  return { kind: 'template', template: text };
}

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

function statusOf(exchange: Exchange): number | null {
  return exchange.outcome.ok ? exchange.outcome.response.status : null;
}

function cancel(id: string, auth: AuthHeader = VALID_AUTH, extra: Partial<RequestPlan> = {}): RequestPlan {
  return { method: 'DELETE', path: `/store/orders/${encodeURIComponent(id)}`, auth, ...extra };
}

/**
 * Findings for orders that were listed at the start and are gone now although their cancel was refused.
 * An order that was not listed at the start is list.includes-given-orders' business, not this one's.
 */
async function stillListed(ctx: CheckContext, ids: readonly string[], why: string): Promise<Finding[]> {
  const initial = await ctx.initialListing();
  const watched = ids.filter((id) => initial.ids?.has(id));
  if (watched.length === 0) return [];
  const listing = await ctx.freshListing();
  if (listing.ids === null) {
    return [
      finding(
        ctx,
        listing.exchange,
        `could not confirm that order ${watched.join(', ')} is still listed: GET /store/orders gave no usable list`,
        `order ${watched.join(', ')} still listed (${why})`,
      ),
    ];
  }
  return watched
    .filter((id) => !listing.ids?.has(id))
    .map((id) =>
      finding(
        ctx,
        listing.exchange,
        `order ${id} is no longer listed after its cancel was refused (${why})`,
        `order ${id} still listed`,
      ),
    );
}

const listChecks: Check[] = [
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
      const status = judgeStatus(ctx, exchange, is(200), expected);
      if (status || !exchange.outcome.ok) return verdict([status], '');
      const { headers, text } = exchange.outcome.response;
      if (!isJsonMediaType(headers['content-type'])) {
        return verdict(
          [
            finding(
              ctx,
              exchange,
              `the list is ${headers['content-type'] ? `\`${headers['content-type']}\`` : 'without a Content-Type'}, not application/json (D15)`,
              expected,
            ),
          ],
          '',
        );
      }
      const body = contract.validateResponseBody('listOrders', 200, text);
      if (!body.ok) {
        const first = body.errors[0];
        return verdict(
          [
            finding(
              ctx,
              exchange,
              `the list is not a JSON array of valid Orders: ${first ? `${first.path || 'body'} ${first.message}` : 'invalid'}`,
              expected,
              body.errors,
            ),
          ],
          '',
        );
      }
      const orders = Array.isArray(body.value) ? body.value : [];
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
            ctx,
            listing.exchange,
            `order ${id} (given with --${ctx.options.pendingOrders.includes(id) ? 'pending' : 'shipped'}-order) is not in the list`,
            `order ${id} listed`,
          ),
        ),
        `all ${given.length} given id(s) listed`,
      );
    },
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
        const result = judgeError(ctx, exchange, is(401), EXPECT_401);
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
          findings.push(judgeError(ctx, await ctx.request(cancel(id, auth)), is(401), EXPECT_401));
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
      return verdict([judgeError(ctx, exchange, is(401), EXPECT_401)], '401 before the id is parsed');
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
        findings.push(judgeError(ctx, await ctx.request(cancel(id, auth)), is(401), EXPECT_401));
      }
      findings.push(...(await stillListed(ctx, [id], 'a refused cancel changes nothing')));
      return verdict(findings, `401 and order ${id} still listed`, [`used pending order ${id}`]);
    },
  },
];

const cancelChecks: Check[] = [
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
        [judgeError(ctx, exchange, is(404), '404 with an Error body')],
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
          [judgeStatus(ctx, exchange, is4xx, '4xx (400, 404 or 422: D9)')],
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
        findings.push(judgeStatus(ctx, exchange, is(409), '409 (the order has shipped)'));
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
      const status = judgeStatus(ctx, exchange, is(204), '204 with no body');
      if (status || !exchange.outcome.ok) return verdict([status], '', [`used pending order ${id}`]);
      ctx.shared.set('cancelled', id);
      const body = contract.validateResponseBody('cancelOrder', 204, exchange.outcome.response.text);
      return verdict(
        [
          body.ok
            ? null
            : finding(ctx, exchange, '204 must have no body (§4.2)', '204 with no body', body.errors),
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
        [judgeStatus(ctx, exchange, is(404, 409), '404 or 409 (D2), not 204')],
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
        judgeStatus(ctx, e, is(204, 404, 409), '204 for one, 404 or 409 for the other'),
      );
      if (broken.some((f) => f !== null)) return verdict(broken, '', notes);
      const statuses = both.map(statusOf);
      const wins = statuses.filter((s) => s === 204).length;
      if (wins === 1) return pass(`answered ${statuses.join(' and ')}`, notes);
      const last = both[1] as Exchange;
      return verdict(
        [
          finding(
            ctx,
            last,
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
    judged.map((e) => judgeErrorBody(ctx, e, `an Error body (${source})`)),
    `${judged.length} answer(s), all valid Error bodies`,
  );
}

const sweepChecks: Check[] = [
  {
    id: 'errors.contract',
    title: 'every error response is a valid Error with the right status',
    citation: '§2, §7, D4, D5, D15',
    level: 'failure',
    operationId: null,
    sends: 'nothing of its own: judges every 4xx answer of the run on a documented operation (except D3/D9)',
    passes:
      'application/json (a charset is fine), a valid Error (code a non-empty string, message a string, status an integer) whose status equals the HTTP status',
    sweep: true,
    async run(ctx) {
      // On a target that does not serve the deprecated pet read, /pets/{petId} is an unknown path (D10):
      // only its 401s are judged.
      const petsServed = (await ctx.petProbe()).served === 'yes';
      const judged = ctx.exchanges.filter(
        (e) =>
          e.errorRule?.level === 'failure' &&
          e.outcome.ok &&
          is4xx(e.outcome.response.status) &&
          (petsServed || e.operationId !== 'getPet' || e.outcome.response.status === 401),
      );
      if (judged.length === 0) return skip('no error response was received in this run', null);
      return verdict(
        judged.map((e) => judgeErrorBody(ctx, e, 'an Error body whose status equals the HTTP status')),
        `${judged.length} error response(s), all valid`,
      );
    },
  },
  {
    id: 'server-errors.none',
    title: 'no response anywhere is 5xx',
    citation: '§7, D9, D10',
    level: 'failure',
    operationId: null,
    sends: 'nothing of its own: judges every answer of the run',
    passes: 'no status from 500 to 599',
    sweep: true,
    async run(ctx) {
      const answered = ctx.exchanges.filter((e) => e.outcome.ok);
      if (answered.length === 0) return skip('no response was received in this run', null);
      return verdict(
        answered.map((e) =>
          (statusOf(e) ?? 0) >= 500
            ? finding(
                ctx,
                e,
                `${e.request.method} ${e.plan.path} answered ${statusOf(e)} (sent by ${e.checkId})`,
                'no 5xx',
              )
            : null,
        ),
        `${answered.length} response(s), none 5xx`,
      );
    },
  },
];

const routeChecks: Check[] = [
  {
    id: 'routes.unknown-path',
    title: 'an unknown path is answered with 4xx',
    citation: 'D10',
    level: 'warning',
    operationId: null,
    sends: 'GET /conformance-no-such-path with the key',
    passes: '404 (any 4xx passes and is noted); 2xx is a warning; 5xx is a failure of server-errors.none',
    async run(ctx) {
      const exchange = await ctx.request({
        method: 'GET',
        path: '/conformance-no-such-path',
        auth: VALID_AUTH,
        errorRule: null,
      });
      return verdict([judgeStatus(ctx, exchange, is4xx, '404 (D10)')], `answered ${statusOf(exchange)}`, [
        `answered ${statusOf(exchange)}`,
      ]);
    },
  },
  {
    id: 'routes.unsupported-method',
    title: 'an undocumented method on an order path is answered with 404 or 405',
    citation: 'D10',
    level: 'warning',
    operationId: null,
    sends:
      'GET /store/orders/{id that does not exist} with the key (GET is safe; only DELETE is documented there)',
    passes:
      '405 with an Allow header, or 404 (any 4xx passes and is noted); 405 without Allow or 2xx is a warning',
    async run(ctx) {
      const id = await ctx.unknownOrderId();
      const exchange = await ctx.request({
        method: 'GET',
        path: `/store/orders/${id}`,
        auth: VALID_AUTH,
        errorRule: null,
      });
      const status = judgeStatus(ctx, exchange, is4xx, '405 with Allow, or 404 (D10)');
      if (status || !exchange.outcome.ok) return verdict([status], '');
      const { response } = exchange.outcome;
      const allow = response.headers.allow;
      if (response.status === 405 && allow === undefined) {
        return verdict(
          [finding(ctx, exchange, '405 without an Allow header (RFC 9110 §15.5.6)', '405 with Allow')],
          '',
        );
      }
      const note = `answered ${response.status}${allow !== undefined ? ` (Allow: ${allow})` : ''}`;
      return pass(note, [note]);
    },
  },
  {
    id: 'pets.deprecation',
    title: 'the deprecated GET /pets/{petId} announces its deprecation',
    citation: '§9, D11',
    level: 'warning',
    operationId: 'getPet',
    sends:
      'GET /pets/{petId} with the key; the pet id from --pet-id, else the petId of the first listed order',
    passes:
      'if the target serves it: the documented Deprecation (RFC 9745) and Sunset (RFC 8594) headers are present',
    async run(ctx) {
      const probe = await ctx.petProbe();
      const { exchange } = probe;
      if (exchange && !exchange.outcome.ok) {
        return verdict([judgeStatus(ctx, exchange, () => true, 'a response')], '');
      }
      if (probe.served !== 'yes' || !exchange?.outcome.ok) {
        const status = exchange ? statusOf(exchange) : null;
        const answered =
          status === null
            ? ''
            : ` (GET /pets/${probe.petId} answered ${status} without a Deprecation header)`;
        return skip(
          `the target does not show that it serves GET /pets/{petId}${answered}; pet id: ${probe.source}`,
          '--pet-id ID',
        );
      }
      const headers = contract.operation('getPet').responses.get(200)?.headers ?? [];
      const { response } = exchange.outcome;
      const missing = headers.filter((name) => response.headers[name] === undefined);
      if (missing.length > 0) {
        return verdict(
          [
            finding(
              ctx,
              exchange,
              `GET /pets/${probe.petId} answered ${response.status} without ${missing.join(' and ')}`,
              `headers ${headers.join(', ')}`,
            ),
          ],
          '',
        );
      }
      return pass(`${headers.join(' and ')} present`, [`pet id ${probe.petId} (${probe.source})`]);
    },
  },
];

/** Every check, in the order they run (sweeps run last whatever their place here). */
export const CHECKS: readonly Check[] = [
  ...listChecks,
  ...authVariantChecks,
  ...authIdChecks,
  ...cancelChecks,
  ...routeChecks,
  ...sweepChecks,
];

/** Which checks receive pending ids first when there are not enough for all. */
export const PENDING_PRIORITY: readonly string[] = [
  'cancel.pending-order',
  'cancel.concurrent',
  'auth.cancelOrder.pending-order',
];
