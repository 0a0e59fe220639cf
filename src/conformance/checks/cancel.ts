/** The cancel checks (§3, §4.2, D2, D8, D9, D16): each cancel is followed by a list read the observer judges. */
import { type Contract, cancelRows, sameInteger } from '../../contract/index.js';
import { documentedErrorRule, documentedStatusLevel, type Exchange } from '../../judge/exchange.js';
import { finding, is, is4xx, type Judgement, skip, verdict } from '../../judge/rules.js';
import type { Finding } from '../../judge/types.js';
import type { CheckContext } from '../context.js';
import {
  type Check,
  cancel,
  cancelCheck,
  cancelEach,
  expectStatus,
  NO_UNUSED_ID,
  statusOf,
} from './check.js';
import { aimMalformed, MALFORMED_IDS, namedReadings, SHIPPED_SPELLINGS, usesBase } from './malformed-ids.js';

const D9_RULE = { level: 'warning', source: 'D9' } as const;

/** What the state table says a cancel answers: pending 204, shipped 409, cancelled 404 or (D2) 409. */
function cancelAnswers(from: Contract): { pending: number; shipped: number; again: number[] } {
  const table = cancelRows(from);
  const pending = [...table.moves][0] ?? 204;
  const shipped = table.refusal ?? 409;
  const again = [...new Set([...table.statesAfter(pending).flatMap((s) => table.answers(s)), shipped])];
  return { pending, shipped, again };
}

/** D9: a malformed id read as the same integer in another notation (`02`, `0x2`) is a warning; failures lead. */
function sameIntegerFinding(ctx: CheckContext, e: Exchange, raw: string, order: string): Finding {
  return finding(
    e,
    ctx.key,
    `DELETE ${e.plan.path} answered ${statusOf(e)}: the server read ${JSON.stringify(raw)} as ${order}, the same integer in another notation (a PostgreSQL cast or a Java, Go, Python or .NET parser reads ids so; allowed, D9)`,
    '400, 404 or 422 for an id that is not in canonical int64 form (D9)',
  );
}

async function cancelOnce(
  ctx: CheckContext,
  id: string,
  allowed: (status: number) => boolean,
  expected: string,
  passMessage: (status: number | null) => string,
  notes: string[],
  rules: string[] = [],
): Promise<Judgement> {
  const step = await ctx.cancel([cancel(ctx, id)]);
  const statuses = step.exchanges.map((e) => expectStatus(ctx, e, allowed, expected, rules));
  const status = step.exchanges[0] ? statusOf(step.exchanges[0]) : null;
  // What changed to the list leads (it names the real damage), then the status verdicts.
  return verdict([...step.findings, ...statuses], passMessage(status), [...notes, ...step.notes]);
}

/** Whether a lenient reading is harmless (D19): an id unlisted and not named pending, or a named shipped id. */
async function safeReading(ctx: CheckContext): Promise<((id: bigint) => boolean) | null> {
  const { ids } = await ctx.initialListing();
  const { pendingOrders: pending, shippedOrders: shipped } = ctx.options;
  return ids && ((id) => shipped.includes(`${id}`) || (!ids.has(`${id}`) && !pending.includes(`${id}`)));
}

const malformedChecks: Check[] = MALFORMED_IDS.map((malformed) =>
  cancelCheck({
    id: `cancel.malformed-id.${malformed.name}`,
    title: `cancelling the malformed id \`${malformed.shown}\` is refused with 4xx`,
    citation: '§4.2, D9',
    sends: `DELETE /store/orders/${malformed.shown} with the key (${malformed.about}), then GET /store/orders; ${
      usesBase(malformed)
        ? '{id} is an id the list shows is unused, or with --destructive a named pending order'
        : 'built so that no lenient reading names a listed order'
    }`,
    passes: '4xx (400, 404 and 422 all pass), never 2xx or 5xx, and no order changed',
    async run(ctx) {
      const safe = await safeReading(ctx);
      if (safe === null) return skip(NO_UNUSED_ID, null);
      const pending = ctx.options.destructive ? ctx.options.pendingOrders.map(BigInt) : [];
      const aim = aimMalformed(malformed, safe, pending);
      if ('blocking' in aim) {
        return skip(
          `not sent: a lenient parser (parseInt, 64-bit wrap, clamping to int64) would read it as listed order ${aim.blocking.join(', ')}, so sending it could cancel that order; if that order has shipped, name it with --shipped-order`,
          '--shipped-order ID',
        );
      }
      const step = await ctx.cancel([cancel(ctx, aim.raw, { errorRule: D9_RULE })]);
      const exchange = step.exchanges[0] as Exchange;
      const notes = [
        aim.target === null
          ? `sent ${aim.raw}: no lenient reading of it names a listed order`
          : `sent ${aim.raw}: a lenient parser reads it as pending order ${aim.target}`,
      ];
      const status = statusOf(exchange) ?? 0;
      const success = status >= 200 && status < 300;
      if (success && aim.target !== null && sameInteger(aim.raw) === BigInt(aim.target)) {
        const warning = sameIntegerFinding(ctx, exchange, aim.raw, `pending order ${aim.target}`);
        const level = step.findings.length > 0 ? undefined : 'warning';
        return verdict([...step.findings, warning], '', [...notes, ...step.notes], level);
      }
      const refused = expectStatus(ctx, exchange, is4xx, '4xx (400, 404 or 422: D9)', []);
      return verdict([...step.findings, refused], `refused with ${status}`, [...notes, ...step.notes]);
    },
  }),
);

const TWO_53 = 2n ** 53n;

/** An unused id that a double (`Number(...)`) rounds to a listed order above 2^53 (D8). */
function roundingNeighbour(listed: ReadonlySet<string>, unused: (id: bigint) => boolean) {
  for (const text of listed) {
    const id = BigInt(text);
    if ((id <= TWO_53 && id >= -TWO_53) || BigInt(Number(id)) !== id) continue;
    for (let d = 1n; d <= 4n; d++) {
      for (const probe of [id + d, id - d]) {
        if (probe > 2n ** 63n - 1n || probe < -(2n ** 63n)) continue;
        if (unused(probe) && BigInt(Number(probe)) === id) return { probe, listed: id };
      }
    }
  }
  return null;
}

const CONCURRENT_CANCELS = 5;

export const CANCEL_CHECKS: readonly Check[] = [
  cancelCheck({
    id: 'cancel.unknown-order',
    title: 'cancelling an order that does not exist is 404',
    citation: '§4.2, §7',
    sends:
      'DELETE /store/orders/{id} with the key, for an int64 id that the list shows is unused and that is not given; then GET /store/orders',
    passes: '404 with an Error body whose status is 404, and no order changed',
    async run(ctx) {
      const id = await ctx.unknownOrderId();
      if (id === null) return skip(NO_UNUSED_ID, null);
      const passed = () => '404 with a valid Error body';
      const notes = [`used unknown id ${id}`];
      return cancelOnce(ctx, id, is(404), '404 with an Error body', passed, notes, ['error-body']);
    },
  }),
  cancelCheck({
    id: 'cancel.int64-exact',
    title: 'ids above 2^53 name exactly their own order (int64, not a double)',
    citation: '§4.2, D8, D16',
    sends:
      'DELETE /store/orders/{unused id next to a listed id above 2^53 that a double rounds to it} with the key, or else DELETE of a spare --pending-order above 2^53; then GET /store/orders',
    passes:
      '404 for the neighbour (204 for the spare pending order), and no other order changed: a server that reads ids through a double cancels the listed neighbour. Destructive: on such a server that order is cancelled',
    needs: { destructive: true },
    async run(ctx, spare) {
      const listing = await ctx.initialListing();
      const safe = await safeReading(ctx);
      if (listing.ids === null || safe === null) return skip(NO_UNUSED_ID, null);
      const found = roundingNeighbour(listing.ids, safe);
      // Else a named pending order above 2^53 by its exact id: a double-reading server cancels a neighbour.
      const [id] = found ? [String(found.probe)] : spare.filter((p) => listing.ids?.has(p));
      if (id !== undefined) {
        const { pending } = cancelAnswers(ctx.options.contract);
        const [status, expected, passed, note] = found
          ? [
              404,
              `404 (order ${id} does not exist)`,
              `404, and order ${found.listed} unchanged`,
              `sent ${id}, which a double reads as listed order ${found.listed}`,
            ]
          : [
              pending,
              `${pending} (order ${id} is pending)`,
              `order ${id} cancelled by its exact id, no other order changed`,
              `used pending order ${id}, above 2^53`,
            ];
        const judgement = await cancelOnce(ctx, id, is(status), expected, () => passed, [note]);
        return { ...judgement, consumed: found ? [] : [id] };
      }
      const big = [...listing.ids].filter((i) => BigInt(i) > TWO_53 || BigInt(i) < -TWO_53);
      return skip(
        big.length === 0
          ? 'could not probe int64 exactness: the list holds no id above 2^53'
          : `could not probe int64 exactness: no listed id above 2^53 (${big.join(', ')}) has an unused neighbour that a double would round to it, and no spare pending id above 2^53 was given`,
        '--pending-order ID (a pending order above 2^53 that no other check takes)',
      );
    },
  }),
  ...malformedChecks,
  cancelCheck({
    id: 'cancel.malformed-id.error-body',
    title: 'refusals of malformed ids carry an Error body',
    citation: '§7, D9',
    level: 'warning',
    sends: 'nothing of its own: judges the 4xx answers to the cancel.malformed-id.* requests',
    passes: 'application/json, a valid Error whose status equals the HTTP status; a miss is a warning (D9)',
    sweep: true,
    run: async (ctx) =>
      judgeRelaxed(ctx, 'D9', 'no malformed-id cancel was answered with 4xx in this run', null),
  }),
  cancelCheck({
    id: 'cancel.shipped-order',
    title: 'cancelling a shipped order is refused with 409 and the order stays',
    citation: '§3, §4.2',
    // D3: the level `x-petstore-conformance` sets for a wrong status to a shipped order's cancel.
    levelIn: (from) => documentedStatusLevel(from, 'cancelOrder', cancelAnswers(from).shipped),
    sends:
      'DELETE /store/orders/{shipped id} with the key, for each --shipped-order (also without --destructive: D19), GET /store/orders after each',
    passes:
      '409 (the status of the shipped row of the state table) for each, and no order changed: each is still listed (shipped orders cannot be reversed)',
    needs: { shippedOrders: true },
    async run(ctx) {
      const ids = ctx.options.shippedOrders;
      const { shipped } = cancelAnswers(ctx.options.contract);
      const plans = ids.map((id) => cancel(ctx, id));
      const { findings, notes } = await cancelEach(ctx, plans, (e) =>
        expectStatus(ctx, e, is(shipped), `${shipped} (the order has shipped)`, []),
      );
      return verdict(findings, `${shipped} and still listed: ${ids.join(', ')}`, notes);
    },
  }),
  cancelCheck({
    id: 'cancel.shipped-order.again',
    title: 'a shipped order refused once is refused again: shipped stays shipped',
    citation: '§3',
    sends:
      'DELETE /store/orders/{shipped id} with the key once more for each --shipped-order, after its first refusal (also without --destructive: a correct server refuses it again), GET /store/orders after each',
    passes:
      'the refusal again (409), never a success after a refusal (the cross-request observer), and no order changed',
    needs: { shippedOrders: true },
    async run(ctx) {
      const { shipped } = cancelAnswers(ctx.options.contract);
      const ids = ctx.options.shippedOrders;
      const plans = ids.map((id) => cancel(ctx, id));
      const first: string[] = [];
      for (const id of ids) {
        const path = ctx.pathOf('cancelOrder', id);
        if (!ctx.exchanges.some((e) => e.path === path && statusOf(e) === shipped))
          first.push(...(await ctx.cancel([cancel(ctx, id)])).notes);
      }
      const { findings, notes } = await cancelEach(ctx, plans, (e) => {
        const seen = ctx.observations.find(
          (o) => o.exchange === e && o.rule === 'state.cancel-after-refusal',
        );
        return seen
          ? finding(e, ctx.key, seen.message, seen.expected)
          : expectStatus(ctx, e, is(shipped), `${shipped} again (the order has shipped)`, []);
      });
      return verdict(findings, `refused again: ${ids.join(', ')}`, [...first, ...notes]);
    },
  }),
  cancelCheck({
    id: 'cancel.shipped-order.malformed-spellings',
    title: 'malformed spellings of a shipped id are refused as malformed, not read as the order',
    citation: '§4.2, D9, D19',
    sends:
      'DELETE /store/orders/{spelling} with the key for each --shipped-order in five malformed spellings: a suffix (20abc), a fraction (20.0), a leading zero (020), a leading space (%2020) and hex (0x14), also without --destructive (D19); GET /store/orders after each. A spelling that a lenient parser could read as another listed or pending order is not sent',
    passes:
      '4xx other than 409 (400, 404 and 422 pass: D9), and no order changed. A 409 proves the server read the malformed id as the shipped order: a lenient id parser, which would cancel a pending order from a mistyped id',
    needs: { shippedOrders: true },
    async run(ctx) {
      const safe = await safeReading(ctx);
      if (safe === null) return skip(NO_UNUSED_ID, null);
      const { shipped, pending } = cancelAnswers(ctx.options.contract);
      const notSent: string[] = [];
      const sends = ctx.options.shippedOrders.flatMap((id) =>
        SHIPPED_SPELLINGS.flatMap(({ name, build }) => {
          const raw = build(BigInt(id));
          const others = namedReadings(raw, safe, BigInt(id));
          if (others.length === 0) return [{ id, name, raw }];
          notSent.push(
            `not sent ${JSON.stringify(raw)} (${name}): a lenient parser could read it as order ${others.join(', ')}, which the list shows`,
          );
          return [];
        }),
      );
      if (sends.length === 0) {
        return skip(
          `every malformed spelling of the shipped id(s) could be read by a lenient parser as another listed order: ${notSent.join('; ')}`,
          null,
        );
      }
      const warnings: Finding[] = [];
      const plans = sends.map((s) => cancel(ctx, s.raw, { errorRule: D9_RULE }));
      const { findings, notes } = await cancelEach(ctx, plans, (e, index) => {
        const { id, name, raw } = sends[index] ?? { id: '', name: '', raw: '' };
        const status = statusOf(e);
        const readAsOrder = status === shipped || status === pending;
        if (readAsOrder && sameInteger(raw) === BigInt(id)) {
          warnings.push(sameIntegerFinding(ctx, e, raw, `shipped order ${id}`));
          return null;
        }
        return readAsOrder
          ? finding(
              e,
              ctx.key,
              `DELETE ${e.plan.path} answered ${status}: the server read the malformed id ${JSON.stringify(raw)} (${name}) as shipped order ${id}, a lenient id parser (D9, D19)`,
              '400, 404 or 422: the id is malformed and names no order (D9)',
            )
          : expectStatus(ctx, e, is4xx, '400, 404 or 422: the id is malformed (D9)', []);
      });
      const refused = `${sends.length} malformed spelling(s) refused as malformed`;
      const level = findings.some((f) => f !== null) ? undefined : 'warning';
      return verdict([...findings, ...warnings], refused, [...notSent, ...notes], level);
    },
  }),
  cancelCheck({
    id: 'cancel.shipped-order.error-body',
    title: '409 refusals carry an Error body',
    citation: '§7, D3',
    // D3: the level `x-petstore-conformance` sets for a non-Error body in that refusal.
    levelIn: (from) =>
      documentedErrorRule(from, 'cancelOrder', cancelAnswers(from).shipped)?.level ?? 'failure',
    sends: 'nothing of its own: judges every 409 answer to a cancel in this run',
    passes: 'application/json, a valid Error whose status is 409; a non-Error body is a warning (D3)',
    sweep: true,
    run: async (ctx) =>
      judgeRelaxed(ctx, 'D3', 'no cancel was answered with 409 in this run', '--shipped-order ID'),
  }),
  cancelCheck({
    id: 'cancel.pending-order',
    title: 'cancelling a pending order succeeds with 204 and no body',
    citation: '§3, §4.2',
    sends:
      'DELETE /store/orders/{pending id} with the key (consumes one pending order), then GET /store/orders; when the order is still listed unchanged, a second DELETE of it and GET /store/orders',
    passes:
      '204 with an empty body; the order leaves the list, or stays on a server that keeps cancelled orders listed (D16, learned and reported) and then refuses a second cancel with 404 or 409 (D2: a second 204 means the cancel had no effect); every other order is still listed and unchanged',
    needs: { destructive: true, pendingOrders: 1 },
    async run(ctx, [id]) {
      if (id === undefined) return skip('no pending id', '--pending-order ID');
      const step = await ctx.cancel([cancel(ctx, id)]);
      const exchange = step.exchanges[0] as Exchange;
      const notes = [`used pending order ${id}`];
      const { pending } = cancelAnswers(ctx.options.contract);
      const status = expectStatus(ctx, exchange, is(pending), `${pending} with no body`, []);
      if (status || !exchange.outcome.ok)
        return verdict([...step.findings, status], '', [...notes, ...step.notes]);
      ctx.cancelledOrder = id;
      // D2, D16: still listed unchanged: kept listed once cancelled, or a no-op cancel? A second cancel tells.
      if (ctx.keptUnchanged.has(id) && step.findings.length === 0) {
        const again = await ctx.cancel([cancel(ctx, id)]);
        const [second] = again.exchanges;
        const answered = second ? statusOf(second) : null;
        if (second && answered === pending) {
          const missing = finding(
            second,
            ctx.key,
            `order ${id} is still listed unchanged after its ${pending}, and a second cancel answered ${pending} again: the cancel had no effect`,
            `order ${id} gone from the list, or a second cancel refused with 404 or 409 (D2, D16)`,
          );
          return verdict([missing, ...again.findings], '', [...notes, ...again.notes]);
        }
        notes.push(
          `order ${id} is still listed after its ${pending}, and a second cancel answered ${answered ?? 'nothing'}: it was cancelled and kept listed`,
        );
      }
      // The shared rules judged its body (§4.2, D24), and a Content-Type on it (D24: only a warning).
      const shared = (rule: string) => exchange.judged.find((f) => f.rule === rule)?.finding ?? null;
      notes.push(...step.notes);
      const failed = verdict([...step.findings, shared('body')], `order ${id} cancelled`, notes);
      const typed = shared('headers');
      return failed.kind === 'pass' ? verdict([typed], failed.message, failed.notes, 'warning') : failed;
    },
  }),
  cancelCheck({
    id: 'cancel.repeat',
    title: 'cancelling an order a second time is not 204',
    citation: '§3, D2',
    sends:
      'DELETE /store/orders/{id} with the key again, for the order cancel.pending-order cancelled, then GET /store/orders',
    passes: '404 or 409 (both readings of D2 pass), never 204, and no order changed',
    needs: { destructive: true },
    async run(ctx) {
      const id = ctx.cancelledOrder;
      if (id === null) {
        return skip(
          'needs the order that cancel.pending-order cancels in the same run, and it cancelled none',
          '--destructive --pending-order ID (with cancel.pending-order selected)',
        );
      }
      const { pending, again } = cancelAnswers(ctx.options.contract);
      const expected = `${again.join(' or ')} (D2), not ${pending}`;
      return cancelOnce(ctx, id, is(...again), expected, (status) => `answered ${status}`, [
        `re-cancelled order ${id}`,
      ]);
    },
  }),
  cancelCheck({
    id: 'cancel.concurrent',
    title: `${CONCURRENT_CANCELS} simultaneous cancels of one pending order give exactly one 204`,
    citation: '§3, D2',
    sends: `${CONCURRENT_CANCELS} GET /store/orders at once (to open a connection per cancel), then ${CONCURRENT_CANCELS} DELETE /store/orders/{pending id} with the key at the same time (consumes one pending order), then GET /store/orders`,
    passes: 'exactly one 204; the others 404 or 409; the order cancelled once and no other order changed',
    needs: { destructive: true, pendingOrders: 1 },
    async run(ctx, [id]) {
      if (id === undefined) return skip('no pending id', '--pending-order ID');
      // D23: list reads open a connection per cancel first, so the cancels leave together and hit a 20 ms window.
      await Promise.all(Array.from({ length: CONCURRENT_CANCELS }, () => ctx.freshListing()));
      const step = await ctx.cancel(Array.from({ length: CONCURRENT_CANCELS }, () => cancel(ctx, id)));
      const all = step.exchanges;
      const notes = [`used pending order ${id}`, ...step.notes];
      const { pending, again } = cancelAnswers(ctx.options.contract);
      const expected = `${pending} for one, ${again.join(' or ')} for the others`;
      const broken = all.map((e) => expectStatus(ctx, e, is(pending, ...again), expected, []));
      if (broken.some((f) => f !== null)) return verdict([...step.findings, ...broken], '', notes);
      const statuses = all.map(statusOf).join(', ');
      const wins = all.filter((e) => statusOf(e) === pending).length;
      const miscount = finding(
        all.at(-1) as Exchange,
        ctx.key,
        `the ${CONCURRENT_CANCELS} simultaneous cancels answered ${statuses}: ${wins === 0 ? 'none' : wins} succeeded`,
        `exactly one ${pending}; the others ${again.join(' or ')}`,
      );
      return verdict([...step.findings, wins === 1 ? null : miscount], `answered ${statuses}`, notes);
    },
  }),
  cancelCheck({
    id: 'cancel.cancelled-stays-gone',
    title: 'a cancelled order that left the list never comes back',
    citation: '§3, D2, D16',
    sends:
      'GET /store/orders once more at the end of the run; judges every list read of the run with the cross-request observer',
    passes:
      'no order that a successful cancel removed from the list is listed again later (a server that keeps cancelled orders listed never removes them, and passes)',
    sweep: true,
    async run(ctx) {
      const { pending } = cancelAnswers(ctx.options.contract);
      const cancelled = ctx.exchanges.filter(
        (e) => e.operationId === 'cancelOrder' && statusOf(e) === pending,
      ).length;
      if (cancelled === 0) {
        return skip(
          `no cancel was answered ${pending} in this run, so no order left the list`,
          '--destructive --pending-order ID',
        );
      }
      const last = await ctx.freshListing();
      const back = ctx.observations.filter((o) => o.rule === 'state.cancelled-returns');
      // D16: listed unchanged right after its cancel's success, gone now: the first read was stale.
      const stale = [...ctx.keptUnchanged]
        .filter(([id]) => last.ids !== null && !last.ids.has(id))
        .map(([id, read]) =>
          finding(
            read,
            ctx.key,
            `stale read: order ${id} was listed unchanged right after its cancel succeeded, and is gone from the list later: a server that keeps cancelled orders listed must keep doing so (D16)`,
            `order ${id} gone from the list read right after its cancel, or listed from then on`,
          ),
        );
      return verdict(
        [...back.map((o) => finding(o.exchange, ctx.key, o.message, o.expected)), ...stale],
        `${cancelled} cancel(s) answered ${pending}; no cancelled order came back`,
      );
    },
  }),
];

/** The shared rules' Error-body findings on the answers a decision relaxes (D3, D9), at this check's level. */
function judgeRelaxed(ctx: CheckContext, source: string, none: string, enableWith: string | null): Judgement {
  const judged = ctx.exchanges.filter((e) => e.errorRule?.source === source && is4xx(statusOf(e) ?? 0));
  if (judged.length === 0) return skip(none, enableWith);
  return verdict(
    judged.map((e) => e.judged.find((f) => f.rule === 'error-body')?.finding ?? null),
    `${judged.length} answer(s), all valid Error bodies`,
  );
}
