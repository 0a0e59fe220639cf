/**
 * What every answer to a generated request must keep, whatever was sent (§4, §7, D5, D9, D10, D21): no
 * 5xx; only a status the document lists for the operation, or one a decision allows for what the request
 * got wrong; and every error on a documented operation an Error whose `status` is the HTTP status. Auth is
 * not judged here: the auth checks do that with requests built for it.
 */
import type { Contract, OperationSpec } from '../../contract/index.js';
import {
  documentedErrorRule,
  documentedStatusLevel,
  type Exchange,
  matchOperation,
} from '../../judge/exchange.js';
import {
  finding,
  judgeErrorBody,
  judgeStatus,
  pathParameterValues,
  serverReading,
} from '../../judge/rules.js';
import type { Finding, Level } from '../../judge/types.js';

export type Invariant = 'answers' | 'no-5xx' | 'documented-status' | 'error-body';

export interface Violation {
  invariant: Invariant;
  level: Level;
  finding: Finding;
}

/** Whether a path parameter is not a value of its schema (D9: any 4xx then). */
function malformedPath(contract: Contract, op: OperationSpec, path: string): boolean {
  return [...pathParameterValues(op, path)].some(([name, raw]) => {
    const param = op.parameters.find((p) => p.in === 'path' && p.name === name);
    if (param === undefined) return false;
    try {
      return !contract.parseParameter(param, decodeURIComponent(raw)).ok;
    } catch {
      return true;
    }
  });
}

/** Whether a declared query or header parameter was sent with a value its schema refuses (D21: 400). */
function invalidDeclared(contract: Contract, op: OperationSpec, exchange: Exchange): boolean {
  const query = new URLSearchParams(exchange.path.split('?')[1] ?? '');
  return op.parameters.some((p) => {
    if (p.in === 'query') {
      const values = query.getAll(p.name);
      if (values.length === 0) return false;
      return !contract.validateParameter(op.operationId, 'query', p.name, values).ok;
    }
    if (p.in === 'header') {
      const value = exchange.plan.headers?.[p.name.toLowerCase()];
      if (value === undefined) return false;
      return !contract.validateParameter(op.operationId, 'header', p.name, value).ok;
    }
    return false;
  });
}

/**
 * The invariants one exchange broke. `contract` is the document the run judges against.
 *
 * @example fuzzViolations(exchange, key, contract).map((v) => v.invariant) // ['no-5xx']
 */
export function fuzzViolations(exchange: Exchange, key: string, contract: Contract): Violation[] {
  const { outcome } = exchange;
  const method = exchange.request.method;
  const where = `${method} ${exchange.path}`;
  if (!outcome.ok) {
    const f = judgeStatus(exchange, key, () => false, 'an answer');
    return f ? [{ invariant: 'answers', level: 'failure', finding: f }] : [];
  }
  const { status } = outcome.value;
  if (status >= 500) {
    return [
      {
        invariant: 'no-5xx',
        level: 'failure',
        finding: finding(exchange, key, `${where} answered ${status}`, 'no 5xx (§7)'),
      },
    ];
  }
  const operationId = matchOperation(contract, method, exchange.path);
  // D10: outside the document any 4xx is right, and its body is not judged; a redirect or a 2xx is not a
  // failure there either (routes.* warn about it with requests of their own).
  if (operationId === null) return [];
  // D11, D21: an undeclared query parameter refused, a retired deprecated read; the phase notes the reading.
  if (serverReading(contract, operationId, exchange) !== null) return [];
  const op = contract.operation(operationId);
  const allowed = new Set(op.statuses);
  const malformed = malformedPath(contract, op, exchange.path);
  // D21: a malformed id is outside the contract, so any 4xx refuses it.
  if (malformed) for (let s = 400; s < 500; s++) allowed.add(s);
  if (invalidDeclared(contract, op, exchange)) for (const s of [400, 422]) allowed.add(s);
  // A body the operation does not declare may be refused.
  if (exchange.plan.body !== undefined) for (const s of [400, 413, 415]) allowed.add(s);
  // D11: a deprecated operation no longer served is a path outside the document (D10).
  const unserved = op.deprecated && outcome.value.headers.deprecation === undefined;
  if (unserved) for (const s of [404, 405]) allowed.add(s);
  const expected = malformed
    ? '4xx (a malformed path id, D9, D21)'
    : `one of ${[...allowed].sort().join(', ')} (§4)`;
  const wrong = judgeStatus(exchange, key, (s) => allowed.has(s), expected);
  if (wrong) {
    return [
      {
        invariant: 'documented-status',
        level: documentedStatusLevel(contract, operationId, status),
        finding: wrong,
      },
    ];
  }
  if (status < 400 || (unserved && status !== 401)) return [];
  // D9 relaxes the Error body of a malformed id, D3 that of a shipped order's 409: warnings.
  const rule = documentedErrorRule(contract, operationId, status);
  const level: Level = malformed && status !== 401 ? 'warning' : (rule?.level ?? 'failure');
  const body = judgeErrorBody(
    contract,
    exchange,
    key,
    'an Error body whose status equals the HTTP status (§7, D5)',
  );
  return body ? [{ invariant: 'error-body', level, finding: body }] : [];
}
