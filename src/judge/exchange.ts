/** Requests as the checks plan them, and exchanges as the run records them and the judge reads them. */
import type { Contract, OperationSpec } from '../contract/index.js';
import { matchPathTemplate, type PathTemplate, parsePathTemplate } from '../contract/path-template.js';
import type { HttpOutcome } from './http-outcome.js';
import { curlLine, KEY_VARIABLE, REDACTED, redactText } from './redact.js';
import type { RatedFinding } from './rules.js';
import type { Level, ReportedRequest, ReportedResponse } from './types.js';

/** The Authorization header a request carries. `$KEY` in a template stands for the real key. */
export type AuthHeader = { kind: 'valid' } | { kind: 'none' } | { kind: 'template'; template: string };

export const VALID_AUTH: AuthHeader = { kind: 'valid' };
export const NO_AUTH: AuthHeader = { kind: 'none' };

/** How an error response is held to the Error contract (§7): relaxed by D3 or D9, or not at all (D10). */
export type ErrorRule = { level: Level; source: string } | null;

export interface RequestPlan {
  method: string;
  /** Appended to the base URL: `/store/orders/42`. */
  path: string;
  auth: AuthHeader;
  /** Overrides the rule taken from the document. */
  errorRule?: ErrorRule;
  /** Besides Accept and Authorization (the fuzz phase's), by lower-case name. */
  headers?: Record<string, string>;
  body?: string;
}

/** What a judgement needs of one exchange, whether the suite sent it or the proxy forwarded it. */
export interface ObservedExchange {
  request: ReportedRequest;
  /** Below the base URL, query included: `/store/orders/42`. */
  path: string;
  outcome: HttpOutcome;
}

export interface Exchange extends ObservedExchange {
  seq: number;
  checkId: string;
  plan: RequestPlan;
  operationId: string | null;
  errorRule: ErrorRule;
  /** What `judgeExchange` found, as the proxy would on the same exchange. */
  judged: RatedFinding[];
}

/** Parsed once per operation: every exchange is matched against each. */
const templates = new WeakMap<OperationSpec, PathTemplate>();

/** The path parameters of a path below the base when it matches the operation's template, raw (still escaped). */
export function matchOperationPath(op: OperationSpec, path: string): Record<string, string> | undefined {
  const template = templates.get(op) ?? parsePathTemplate(op.path);
  templates.set(op, template);
  return matchPathTemplate(template, (path.split('?')[0] ?? path).split('/'));
}

/** The documented operations at the path template a path below the base matches: D10's 404 or 405. */
export function operationsAt(contract: Contract, path: string): OperationSpec[] {
  return contract.operations.filter((op) => matchOperationPath(op, path));
}

/** The documented operation a method and a path below the base hit. */
export function matchOperation(contract: Contract, method: string, path: string): string | null {
  return operationsAt(contract, path).find((op) => op.method === method.toLowerCase())?.operationId ?? null;
}

/** The rule the document sets for an error body: `x-petstore-conformance.body` (D3), else §7 at failure. */
export function documentedErrorRule(from: Contract, operationId: string | null, status: number): ErrorRule {
  if (operationId === null) return null;
  const conformance = from.operation(operationId).responses.get(status)?.conformance;
  return conformance
    ? { level: conformance.body, source: conformance.decision }
    : { level: 'failure', source: '§7' };
}

/** How bad the wrong status is where the document expects this one: `x-petstore-conformance.status` (D3). */
export function documentedStatusLevel(from: Contract, operationId: string, status: number): Level {
  return from.operation(operationId).responses.get(status)?.conformance?.status ?? 'failure';
}

export function authorizationValue(auth: AuthHeader, key: string): string | null {
  if (auth.kind === 'none') return null;
  if (auth.kind === 'valid') return `Bearer ${key}`;
  return auth.template.split('$KEY').join(key);
}

export function reportRequest(
  method: string,
  url: string,
  headers: Record<string, string>,
  key: string,
  body?: string,
): ReportedRequest {
  const redacted = (as: string) =>
    Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, redactText(value, key, as)]));
  let shown: Record<string, string> | undefined;
  let curl: string | undefined;
  // Lazy: the proxy builds one per exchange it forwards, and redaction costs ~100 µs, but few are ever shown.
  return {
    method,
    url: redactText(url, key),
    get headers() {
      shown ??= redacted(REDACTED);
      return shown;
    },
    get curl() {
      curl ??= redactText(curlLine(method, url, redacted(KEY_VARIABLE), body), key, KEY_VARIABLE);
      return curl;
    },
  };
}

const EXCERPT_CHARS = 500;

/** What came back, for a report; a redirect is reported as unusable (none is ever followed). */
export function reportResponse(exchange: ObservedExchange, key: string): ReportedResponse {
  const { outcome } = exchange;
  if (!outcome.ok) {
    return { status: null, contentType: null, bodyExcerpt: '', transportError: outcome.error.message };
  }
  const { status, headers, bytes } = outcome.value;
  // Redact before cutting: a key straddling the cut would leave its start.
  const text = redactText(outcome.value.text, key);
  return {
    status,
    contentType: headers['content-type'] ?? null,
    bodyExcerpt: text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS)}… (${bytes} bytes)` : text,
    transportError: redirectMessage(exchange),
  };
}

/** A 3xx answer is a failure of whichever check received it: redirects are not followed. */
export function redirectMessage({ outcome }: ObservedExchange): string | null {
  if (!outcome.ok || outcome.value.status < 300 || outcome.value.status > 399) return null;
  const { status, headers } = outcome.value;
  return `redirected (${status})${headers.location ? ` to ${headers.location}` : ''}; redirects are not followed, so the target must answer at the base URL itself`;
}
