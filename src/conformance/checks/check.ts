/** A conformance check: data with a citation, a level, what it sends and passes, and how it runs. */
import { type Contract, defaultContract } from '../../contract/index.js';
import { type AuthHeader, type Exchange, type RequestPlan, VALID_AUTH } from '../../judge/exchange.js';
import { EXPECT_401, is, type Judgement, judgeStatus } from '../../judge/rules.js';
import type { Finding, Level } from '../../judge/types.js';
import type { CheckContext } from '../context.js';

/** What a check needs beyond a reachable target; without it the check is a SKIP that says so. */
export interface Requirements {
  /** It cancels pending orders: runs only with `--destructive`. */
  destructive?: boolean;
  /** How many pending order ids of its own it consumes. */
  pendingOrders?: number;
  shippedOrders?: boolean;
  /** A `--pending-order` or a `--shipped-order`. */
  givenOrders?: boolean;
}

export interface Check {
  id: string;
  title: string;
  /** Section of the interface spec (§) and/or product decision (D) it enforces. */
  citation: string;
  level: Level;
  /** The level a given contract sets (`x-petstore-conformance`, D3); `level` is the toolkit document's. */
  levelIn?: (contract: Contract) => Level;
  operationId: string | null;
  sends: string;
  passes: string;
  needs?: Requirements;
  /** Judges every exchange of the run after the other checks, instead of sending its own. */
  sweep?: boolean;
  run(ctx: CheckContext, pendingIds: readonly string[]): Promise<Judgement>;
}

export const WRONG_KEY = 'petstore-conformance-wrong-key';

export const NO_UNUSED_ID =
  'the list was not read in full (see list.orders), so no order id is known to be unused; cancelling a guessed id could cancel a real order';

/** An Authorization header from a template; `$KEY` stands for the real key. */
export function template(text: string): AuthHeader {
  return { kind: 'template', template: text };
}

export const WRONG_BEARER = template(`Bearer ${WRONG_KEY}`);

export function statusOf(exchange: Exchange): number | null {
  return exchange.outcome.ok ? exchange.outcome.value.status : null;
}

type CheckSpec = Omit<Check, 'level' | 'operationId'> & Partial<Pick<Check, 'level' | 'operationId'>>;

/** A check at failure level and of no operation unless it says; `levelIn` reads its level from the document (D3). */
export function defineCheck(spec: CheckSpec): Check {
  const made: Check = { level: 'failure', operationId: null, ...spec };
  const { levelIn } = spec;
  // The built-in document's level, read when asked: nothing is compiled at import.
  if (levelIn) Object.defineProperty(made, 'level', { get: () => levelIn(defaultContract()) });
  return made;
}

export const cancelCheck = (spec: Omit<CheckSpec, 'operationId'>): Check =>
  defineCheck({ operationId: 'cancelOrder', ...spec });

export function cancel(ctx: CheckContext, id: string, extra: Partial<RequestPlan> = {}): RequestPlan {
  const { method } = ctx.options.contract.operation('cancelOrder');
  return { method: method.toUpperCase(), path: ctx.pathOf('cancelOrder', id), auth: VALID_AUTH, ...extra };
}

/** The status a check expects, then the first shared finding of `rules` (`[]`: the status alone). */
export function expectStatus(
  ctx: CheckContext,
  exchange: Exchange,
  allowed: (status: number) => boolean,
  expected: string,
  rules: readonly string[] = ['auth', 'error-body'],
): Finding | null {
  return (
    judgeStatus(exchange, ctx.key, allowed, expected) ??
    exchange.judged.find((f) => rules.includes(f.rule))?.finding ??
    null
  );
}

export function expect401(ctx: CheckContext, exchange: Exchange, expected = EXPECT_401): Finding | null {
  return expectStatus(ctx, exchange, is(401), expected);
}

/** Cancels, a step each, `judge` on each answer; what changed to the list leads unless `statusFirst`. */
export async function cancelEach(
  ctx: CheckContext,
  plans: readonly RequestPlan[],
  judge: (e: Exchange, index: number) => Finding | null,
  statusFirst = false,
) {
  const findings: Array<Finding | null> = [];
  const notes: string[] = [];
  for (const [index, plan] of plans.entries()) {
    const step = await ctx.cancel([plan]);
    const statuses = step.exchanges.map((e) => judge(e, index));
    findings.push(...(statusFirst ? [...statuses, ...step.findings] : [...step.findings, ...statuses]));
    notes.push(...step.notes);
  }
  return { findings, notes };
}
