// What every answer to a generated request must keep (§4, §7, D5, D9, D10, D21); the first two invariants
// are judgeExchange's findings, and auth is the auth checks' matter.
import type { Contract } from '../../contract/index.js';
import { documentedErrorRule, documentedStatusLevel, type Exchange } from '../../judge/exchange.js';
import { judgeErrorBody, judgeStatus, malformedPathParameters, serverReading } from '../../judge/rules.js';
import type { Finding, Level } from '../../judge/types.js';

export interface Violation {
  invariant: 'answers' | 'no-5xx' | 'documented-status' | 'error-body';
  level: Level;
  finding: Finding;
}

export function fuzzViolations(exchange: Exchange, key: string, contract: Contract): Violation[] {
  const { outcome, operationId } = exchange;
  const [shared] = exchange.judged;
  if (!outcome.ok) return shared ? [{ invariant: 'answers', level: 'failure', finding: shared.finding }] : [];
  const { status } = outcome.value;
  if (status >= 500)
    return shared ? [{ invariant: 'no-5xx', level: 'failure', finding: shared.finding }] : [];
  // D10: outside the document any answer but a 5xx is the routes checks' matter; D11, D21: a reading.
  if (operationId === null || serverReading(contract, operationId, exchange) !== null) return [];
  const op = contract.operation(operationId);
  const allowed = new Set(op.statuses);
  const malformed = malformedPathParameters(op, exchange.path).length > 0;
  // D21: a malformed id is outside the contract, so any 4xx refuses it.
  if (malformed) for (let s = 400; s < 500; s++) allowed.add(s);
  const invalidHeader = op.parameters.some((p) => {
    const value = p.in === 'header' ? exchange.plan.headers?.[p.name.toLowerCase()] : undefined;
    return value !== undefined && !contract.validateParameter(operationId, 'header', p.name, value).ok;
  });
  if (invalidHeader) for (const s of [400, 422]) allowed.add(s);
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
    const level = documentedStatusLevel(contract, operationId, status);
    return [{ invariant: 'documented-status', level, finding: wrong }];
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
