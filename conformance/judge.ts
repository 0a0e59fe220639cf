/**
 * The verdicts checks reach, and the few judgements they share: the status, the Error contract (§7,
 * D4, D5, D15) and the media type. Every body verdict comes from the contract module; no schema is
 * written here.
 */
import { contract, parseExactJson, type SchemaViolation } from '../src/contract/index.js';
import type { CheckContext } from './context.js';
import { type Exchange, redirectMessage, reportResponse } from './exchange.js';
import type { Finding } from './types.js';

export type Judgement =
  | { kind: 'pass'; message: string; notes?: string[] }
  | { kind: 'violation'; message: string; findings: Finding[]; notes?: string[] }
  | { kind: 'skip'; reason: string; enableWith: string | null };

export function pass(message: string, notes: string[] = []): Judgement {
  return { kind: 'pass', message, notes };
}

export function skip(reason: string, enableWith: string | null): Judgement {
  return { kind: 'skip', reason, enableWith };
}

/** A pass when no finding is set, else a violation that leads with the first finding. */
export function verdict(
  findings: ReadonlyArray<Finding | null>,
  passMessage: string,
  notes: string[] = [],
): Judgement {
  const found = findings.filter((f): f is Finding => f !== null);
  if (found.length === 0) return pass(passMessage, notes);
  const [first] = found;
  const more = found.length > 1 ? ` (and ${found.length - 1} more)` : '';
  return { kind: 'violation', message: `${first?.message ?? 'violation'}${more}`, findings: found, notes };
}

export function finding(
  ctx: CheckContext,
  exchange: Exchange,
  message: string,
  expected: string,
  schemaViolations: SchemaViolation[] = [],
): Finding {
  return {
    message,
    expected,
    request: exchange.request,
    actual: reportResponse(exchange, ctx.options.apiKey),
    schemaViolations,
  };
}

/** `application/json`, with or without parameters such as `charset` (D15). */
export function isJsonMediaType(contentType: string | undefined): boolean {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() === 'application/json';
}

/** The status the response must have, or why it has none (no response, a redirect). */
export function judgeStatus(
  ctx: CheckContext,
  exchange: Exchange,
  allowed: (status: number) => boolean,
  expected: string,
): Finding | null {
  const { outcome } = exchange;
  if (!outcome.ok)
    return finding(
      ctx,
      exchange,
      `${exchange.request.method} ${exchange.request.url}: ${outcome.error.message}`,
      expected,
    );
  const redirect = redirectMessage(exchange);
  if (redirect) return finding(ctx, exchange, redirect, expected);
  const { status } = outcome.response;
  if (allowed(status)) return null;
  return finding(
    ctx,
    exchange,
    `${exchange.request.method} ${pathOf(exchange)} answered ${status}, expected ${expected}`,
    expected,
  );
}

/** The path after the base URL, for messages. */
export function pathOf(exchange: Exchange): string {
  return exchange.plan.path;
}

/**
 * The Error contract: `application/json`, a valid Error (three fields, right types, non-empty code: §2,
 * D4) whose `status` equals the HTTP status (D5). Only meaningful for a response that arrived.
 */
export function judgeErrorBody(ctx: CheckContext, exchange: Exchange, expected: string): Finding | null {
  const { outcome } = exchange;
  if (!outcome.ok) return null;
  const { status, headers, text } = outcome.response;
  const where = `${exchange.request.method} ${pathOf(exchange)} → ${status}`;
  if (!isJsonMediaType(headers['content-type'])) {
    return finding(
      ctx,
      exchange,
      `${where}: the error body is ${headers['content-type'] ? `\`${headers['content-type']}\`` : 'without a Content-Type'}, not application/json (D15)`,
      expected,
    );
  }
  const parsed = parseExactJson(text);
  if (!parsed.ok) {
    return finding(ctx, exchange, `${where}: the error body is not valid JSON (${parsed.error})`, expected);
  }
  const validated = contract.validateSchema('Error', parsed.value);
  if (!validated.ok) {
    const first = validated.errors[0];
    return finding(
      ctx,
      exchange,
      `${where}: the body is not a valid Error: ${first ? `${first.path || 'body'} ${first.message}` : 'invalid'}`,
      expected,
      validated.errors,
    );
  }
  const body = parsed.value as { status?: unknown };
  if (body.status !== status) {
    return finding(
      ctx,
      exchange,
      `${where}: the Error body says status ${String(body.status)} (D5: must equal ${status})`,
      expected,
      [
        {
          path: '/status',
          keyword: 'D5',
          schemaPath: '#/components/schemas/Error/properties/status',
          message: `must equal the HTTP status ${status}`,
        },
      ],
    );
  }
  return null;
}

/** Status first; the Error body only when the status is right. */
export function judgeError(
  ctx: CheckContext,
  exchange: Exchange,
  allowed: (status: number) => boolean,
  expected: string,
): Finding | null {
  return judgeStatus(ctx, exchange, allowed, expected) ?? judgeErrorBody(ctx, exchange, expected);
}

export const is =
  (...statuses: number[]) =>
  (status: number): boolean =>
    statuses.includes(status);

export const is4xx = (status: number): boolean => status >= 400 && status <= 499;
