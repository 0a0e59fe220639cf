/** The judgements of one exchange, the same for the suite and the proxy: a finding (key redacted) or `null`. */
import {
  bearerToken,
  type Contract,
  type ExactJson,
  type OperationSpec,
  parseExactJson,
  type SchemaViolation,
  sameInteger,
} from '../contract/index.js';
import { parseParameter } from '../contract/parameters.js';
import { documentedHeaderViolations } from './documented-headers.js';
import {
  documentedErrorRule,
  documentedStatusLevel,
  matchOperation,
  matchOperationPath,
  type ObservedExchange,
  operationsAt,
  redirectMessage,
  reportResponse,
} from './exchange.js';
import { decoded } from './key-forms.js';
import type { Finding, Level } from './types.js';

/** What a check concluded; `consumed` names the pending orders it used where not simply the ones handed it. */
export type Judgement =
  | { kind: 'pass'; message: string; notes?: string[]; consumed?: string[] }
  | {
      kind: 'violation';
      message: string;
      findings: Finding[];
      notes?: string[];
      consumed?: string[];
      /** When the run's options decide the level (D16 `--sole-client`), not the check's own. */
      level?: Level;
    }
  | { kind: 'skip'; reason: string; enableWith: string | null };

export const pass = (message: string, notes: string[] = []): Judgement => ({ kind: 'pass', message, notes });

export function skip(reason: string, enableWith: string | null): Judgement {
  return { kind: 'skip', reason, enableWith };
}

/** A pass when no finding is set, else a violation that leads with the first finding (at `level` if given). */
export function verdict(
  findings: ReadonlyArray<Finding | null>,
  passMessage: string,
  notes: string[] = [],
  level?: Level,
): Judgement {
  const found = findings.filter((f): f is Finding => f !== null);
  if (found.length === 0) return pass(passMessage, notes);
  const more = found.length > 1 ? ` (and ${found.length - 1} more)` : '';
  const message = `${found[0]?.message}${more}`;
  return { kind: 'violation', message, findings: found, notes, ...(level ? { level } : {}) };
}

/** One broken rule, with the request and the response excerpt as reported (the key redacted). */
export function finding(
  exchange: ObservedExchange,
  key: string,
  message: string,
  expected: string,
  schemaViolations: SchemaViolation[] = [],
): Finding {
  return {
    message,
    expected,
    request: exchange.request,
    actual: reportResponse(exchange, key),
    schemaViolations,
  };
}

/** The status the response must have, or why it has none (no response, a redirect). */
export function judgeStatus(
  exchange: ObservedExchange,
  key: string,
  allowed: (status: number) => boolean,
  expected: string,
): Finding | null {
  const { outcome, request } = exchange;
  const broke = (message: string) => finding(exchange, key, message, expected);
  if (!outcome.ok) return broke(`${request.method} ${request.url}: ${outcome.error.message}`);
  const redirect = redirectMessage(exchange);
  if (redirect) return broke(redirect);
  const { status } = outcome.value;
  if (allowed(status)) return null;
  return broke(`${request.method} ${exchange.path} answered ${status}, expected ${expected}`);
}

/** D15: a JSON body comes as `application/json`, any parameters (a `charset`) allowed. */
function judgeMediaType(
  exchange: ObservedExchange,
  key: string,
  what: string,
  expected: string,
): Finding | null {
  if (!exchange.outcome.ok) return null;
  const type = exchange.outcome.value.headers['content-type'];
  if ((type ?? '').split(';')[0]?.trim().toLowerCase() === 'application/json') return null;
  const is = type ? `\`${type}\`` : 'without a Content-Type';
  return finding(exchange, key, `${what} is ${is}, not application/json (D15)`, expected);
}

/** The Error contract (§2, §7, D4, D15) whose `status` equals the HTTP status (D5). */
export function judgeErrorBody(
  contract: Contract,
  exchange: ObservedExchange,
  key: string,
  expected: string,
): Finding | null {
  const { outcome } = exchange;
  if (!outcome.ok) return null;
  const { status, text } = outcome.value;
  const where = `${exchange.request.method} ${exchange.path} → ${status}`;
  const broke = (what: string, violations?: SchemaViolation[]) =>
    finding(exchange, key, `${where}: ${what}`, expected, violations);
  const media = judgeMediaType(exchange, key, `${where}: the error body`, expected);
  if (media) return media;
  const parsed = parseExactJson(text);
  if (!parsed.ok) return broke(`the error body is not valid JSON (${parsed.error})${encodingHint(exchange)}`);
  const validated = contract.validateSchema('Error', parsed.value);
  if (!validated.ok)
    return broke(`the body is not a valid Error: ${described(validated.error)}`, validated.error);
  const said = (parsed.value as { status?: unknown }).status;
  if (said === status) return null;
  const schemaPath = '#/components/schemas/Error/properties/status';
  const violation = {
    path: '/status',
    keyword: 'D5',
    schemaPath,
    message: `must equal the HTTP status ${status}`,
  };
  return broke(`the Error body says status ${String(said)} (D5: must equal ${status})`, [violation]);
}

/** The last body found valid: a client polling an unchanged list is judged without a parse (the proxy's hot path). */
let lastValid:
  | {
      contract: Contract;
      operationId: string;
      status: number;
      text: string;
      body: ReturnType<Contract['validateResponseBody']>;
    }
  | undefined;

/** The observer's items of a list the judge just found valid, so it parses a list once per exchange. */
export function validListItems(text: string): ExactJson[] | undefined {
  const body = lastValid?.text === text ? lastValid.body : undefined;
  return body?.ok && Array.isArray(body.value) ? body.value : undefined;
}

/** A success body as documented: media type (D15), read losslessly (D8), none where none is (§4.2, D24). */
function judgeSuccessBody(
  contract: Contract,
  exchange: ObservedExchange,
  key: string,
  operationId: string,
): Finding | null {
  const { outcome } = exchange;
  if (!outcome.ok) return null;
  const { status, text } = outcome.value;
  const where = `${exchange.request.method} ${exchange.path} → ${status}`;
  const broke = (message: string, expected: string, violations?: SchemaViolation[]) =>
    finding(exchange, key, message, expected, violations);
  const last = lastValid;
  const seen =
    last?.contract === contract &&
    last.operationId === operationId &&
    last.status === status &&
    last.text === text;
  const body = seen ? last.body : contract.validateResponseBody(operationId, status, text);
  if (body.ok && !seen) lastValid = { contract, operationId, status, text, body };
  if (contract.operation(operationId).responses.get(status)?.mediaType === null) {
    if (!body.ok) return broke(`${status} must have no body (§4.2)`, `${status} with no body`, body.error);
    const length = outcome.value.headers['content-length'];
    if (length === undefined || length.trim() === '0') return null;
    return broke(
      `${where} with Content-Length: ${length}: a ${status} has no content (RFC 9110 §8.6, D24)`,
      `${status} with no body and no Content-Length other than 0`,
    );
  }
  const expected = `${status}, application/json, the body as documented`;
  const media = judgeMediaType(exchange, key, 'the body', expected);
  if (media || body.ok) return media;
  const hint = body.error[0]?.keyword === 'json' ? encodingHint(exchange) : '';
  return broke(`${where}: the body is not valid: ${described(body.error)}${hint}`, expected, body.error);
}

function described(violations: readonly SchemaViolation[]): string {
  const [first] = violations;
  return first ? `${first.path || 'body'} ${first.message}` : 'invalid';
}

/** Why a body meant as JSON may not read so: gzipped twice, or gzip bytes with no Content-Encoding named. */
function encodingHint(exchange: ObservedExchange): string {
  if (!exchange.outcome.ok) return '';
  const { headers, text } = exchange.outcome.value;
  const named = headers['content-encoding'];
  const gzip = text.startsWith('\u001f\u008b') || text.startsWith('\u001f\ufffd');
  if (named !== undefined) {
    return `; the response has Content-Encoding: ${named}, which was decoded once${gzip ? ', and the body still starts like gzip data (encoded twice?)' : ''}`;
  }
  return gzip ? '; the body starts like gzip data, though the response names no Content-Encoding' : '';
}

/** D10: outside the document any 4xx; a 405 carries `Allow` (RFC 9110 §15.5.6). */
function judgeRoute(contract: Contract, exchange: ObservedExchange, key: string): Finding | null {
  const expected =
    operationsAt(contract, exchange.path).length > 0 ? '405 with Allow, or 404 (D10)' : '404 (D10)';
  const status = judgeStatus(exchange, key, is4xx, expected);
  if (status || !exchange.outcome.ok) return status;
  const { status: answered, headers } = exchange.outcome.value;
  if (answered !== 405 || headers.allow !== undefined) return null;
  return finding(exchange, key, '405 without an Allow header (RFC 9110 §15.5.6)', '405 with Allow');
}

/** The raw (still escaped) value of each path parameter in a path below the base: `orderId` → `1.5`. */
export function pathParameterValues(op: OperationSpec, path: string): Map<string, string> {
  return new Map(Object.entries(matchOperationPath(op, path) ?? {}));
}

/** The declared path parameters whose value breaks its schema (D9: an order id that is not an int64). */
export function malformedPathParameters(op: OperationSpec, path: string): string[] {
  return [...pathParameterValues(op, path)].flatMap(([name, value]) => {
    const param = op.parameters.find((p) => p.name === name && p.in === 'path');
    const text = decoded(value);
    return param !== undefined && (text === null || !parseParameter(param, text).ok) ? [name] : [];
  });
}

/** The declared query parameters sent with a value their schema refuses (D21): `?limit=0` → `limit`. */
export function invalidQueryParameters(contract: Contract, op: OperationSpec, path: string): string[] {
  const query = new URLSearchParams(path.split('?')[1] ?? '');
  return op.parameters
    .filter((p) => p.in === 'query' && query.has(p.name))
    .filter((p) => !contract.validateParameter(op.operationId, 'query', p.name, query.getAll(p.name)).ok)
    .map((p) => p.name);
}

/** An answer the contract leaves to the server, in words, else `null`: D21's 4xx, D11's retired read; no body judged. */
export function serverReading(
  contract: Contract,
  operationId: string,
  exchange: ObservedExchange,
): string | null {
  if (!exchange.outcome.ok) return null;
  const { status, headers } = exchange.outcome.value;
  const op = contract.operation(operationId);
  if (op.deprecated && (status === 410 || (status === 404 && headers.deprecation === undefined))) {
    return `the deprecated ${op.operationId} answered ${status}: retired (D11)`;
  }
  if (!is4xx(status) || op.statuses.includes(status)) return null;
  const declared = new Set(op.parameters.filter((p) => p.in === 'query').map((p) => p.name));
  const query = new URLSearchParams(exchange.path.split('?')[1] ?? '');
  if ([...query.keys()].some((name) => !declared.has(name))) {
    return `an undeclared query parameter refused with ${status} (the server's choice, D21)`;
  }
  const invalid = invalidQueryParameters(contract, op, exchange.path);
  return invalid.length === 0 ? null : `an invalid \`${invalid.join('`, `')}\` refused with ${status} (D21)`;
}

/** A broken rule of one exchange, with the level the document and the decisions give it. */
export interface RatedFinding {
  /** `status`, `auth`, `error-body`, `body`, `route`, `headers`, `server-error` or `gateway`. */
  rule: string;
  citation: string;
  level: Level;
  finding: Finding;
}

/** What a request without a usable key gets (§5, D6). */
export const EXPECT_401 = '401 with an Error body whose status is 401';

/** Everything the document says about one exchange, whoever made it (§5, §7, D3, D6-D11, D15, D21, D24). */
export function judgeExchange(contract: Contract, exchange: ObservedExchange, key: string): RatedFinding[] {
  const rated = (rule: string, citation: string, level: Level, f: Finding | null): RatedFinding[] =>
    f ? [{ rule, citation, level, finding: f }] : [];
  const broke = (message: string, expected: string, violations?: SchemaViolation[]) =>
    finding(exchange, key, message, expected, violations);
  const { outcome } = exchange;
  const where = `${exchange.request.method} ${exchange.path}`;
  if (!outcome.ok || redirectMessage(exchange)) {
    return rated('status', '§7', 'failure', judgeStatus(exchange, key, is(), 'a response'));
  }
  const { status } = outcome.value;
  // D20, D22: a 429 or 503 without the API's Error is a gateway's "not now", as the suite retries it.
  if ((status === 429 || status === 503) && judgeErrorBody(contract, exchange, key, 'an Error') !== null) {
    const note = broke(
      `${where} answered ${status} without the API's Error body: a gateway or rate limiter answered, not the server (D20, D22)`,
      'the server behind the gateway, once it takes requests',
    );
    return rated('gateway', 'D20, D22', 'warning', note);
  }
  if (status >= 500) {
    return rated('server-error', '§7, D9, D10', 'failure', broke(`${where} answered ${status}`, 'no 5xx'));
  }
  const operationId = matchOperation(contract, exchange.request.method, exchange.path);
  if (operationId === null) return rated('route', 'D10', 'warning', judgeRoute(contract, exchange, key));
  const op = contract.operation(operationId);
  // D11: a deprecated read no longer served is a path outside the document, key or not.
  if (op.deprecated && status === 404 && outcome.value.headers.deprecation === undefined) {
    return rated('route', 'D10, D11', 'warning', judgeRoute(contract, exchange, key));
  }
  if (op.deprecated && status === 410) return [];
  // D6: without a usable key the answer is 401, before any id is looked at.
  if (bearerToken(exchange.request.headers.authorization) === null) {
    const refused = judgeStatus(exchange, key, is(401), EXPECT_401);
    return rated(
      'auth',
      '§5, D6, D7',
      'failure',
      refused ?? judgeErrorBody(contract, exchange, key, EXPECT_401),
    );
  }
  if (serverReading(contract, operationId, exchange) !== null) return [];
  const malformed = malformedPathParameters(op, exchange.path);
  if (malformed.length > 0) {
    const refused = judgeStatus(exchange, key, is4xx, '4xx (400, 404 or 422: D9)');
    // D9: `02` or `0x2` read as order 2, the same integer in another notation, is only a warning.
    const values = pathParameterValues(op, exchange.path);
    const sameValue =
      status < 300 && malformed.every((name) => sameInteger(decoded(values.get(name) ?? '') ?? '') !== null);
    if (refused) return rated('status', '§4.2, D9', sameValue ? 'warning' : 'failure', refused);
    const body = judgeErrorBody(contract, exchange, key, 'an Error body (D9)');
    return rated('error-body', '§7, D9', 'warning', body);
  }
  const undocumented = judgeStatus(exchange, key, is(...op.statuses), `one of ${op.statuses.join(', ')}`);
  if (undocumented)
    return rated('status', '§4', documentedStatusLevel(contract, operationId, status), undocumented);
  // D11: the documented headers of the response of status `of`, present and valid by their schemas.
  const documentedHeaders = (of: number | undefined): RatedFinding[] =>
    of === undefined
      ? []
      : documentedHeaderViolations(contract, operationId, of, outcome.value.headers).flatMap((problem) =>
          rated(
            'headers',
            '§9, D11',
            'warning',
            broke(`${where} answered ${status} ${problem.message}`, problem.expected, problem.violations),
          ),
        );
  if (status >= 400) {
    const rule = documentedErrorRule(contract, operationId, status);
    // D11: a deprecated read that announces its deprecation on an error carries all of its success's headers.
    const announced = op.deprecated && outcome.value.headers.deprecation !== undefined;
    const body = rule && judgeErrorBody(contract, exchange, key, 'an Error body');
    return [
      ...(rule ? rated('error-body', `§7, ${rule.source}`, rule.level, body) : []),
      ...(announced ? documentedHeaders(op.statuses.find((s) => s < 300)) : []),
    ];
  }
  // D21: accepting an invalid declared parameter is a warning.
  const invalid = invalidQueryParameters(contract, op, exchange.path);
  const accepted =
    invalid.length === 0
      ? null
      : broke(
          `${where} accepted the invalid \`${invalid.join('`, `')}\` with ${status}`,
          '400 or 422 (any 4xx) with an Error body (D21)',
        );
  // D24: a `Content-Type` on a 204, which has no content, is a warning.
  const type = outcome.value.headers['content-type'];
  const typed = `${where} → 204 with Content-Type: ${type}, though it has no content (D24)`;
  const typed204 = status === 204 && type !== undefined ? broke(typed, '204 without Content-Type') : null;
  return [
    ...rated('status', 'D21', 'warning', accepted),
    ...rated('body', '§4, D8, D15, D24', 'failure', judgeSuccessBody(contract, exchange, key, operationId)),
    ...rated('headers', 'D24', 'warning', typed204),
    ...documentedHeaders(status),
  ];
}

export const is =
  (...statuses: number[]) =>
  (status: number): boolean =>
    statuses.includes(status);

export const is4xx = (status: number): boolean => status >= 400 && status <= 499;
