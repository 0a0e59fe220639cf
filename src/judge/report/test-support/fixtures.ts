/**
 * Hand-made results for the report tests: one check of each outcome, with findings whose text a target
 * controls, so a test can see each outcome rendered and every byte escaped.
 */
import type { CheckResult, ConformanceResult, Finding, Outcome } from '../../types.js';
import { summarise } from '../input.js';

/** A target-controlled body that tries to break out of every report format. */
export const HOSTILE_BODY = '<script>window.pwned=1</script><img src="http://127.0.0.1:9/x.png"> & ]]> "\'';

export function finding(message: string, status = 401): Finding {
  return {
    message,
    expected: `${status} with an Error body`,
    request: {
      method: 'GET',
      url: 'http://h/v1/store/orders',
      headers: { authorization: 'Bearer <redacted>' },
      curl: `curl -i -X GET -H "authorization: Bearer $PETSTORE_API_KEY" 'http://h/v1/store/orders'`,
    },
    actual: { status, contentType: 'text/html', bodyExcerpt: HOSTILE_BODY, transportError: null },
    schemaViolations: [],
  };
}

export function check(id: string, outcome: Outcome, findings: Finding[] = []): CheckResult {
  return {
    id,
    title: `the title of ${id}`,
    citation: '§5, D7',
    level: outcome === 'WARN' ? 'warning' : 'failure',
    outcome,
    operationId: 'listOrders',
    message: findings[0]?.message ?? `${outcome.toLowerCase()} message of ${id}`,
    findings,
    notes: [],
    skip: outcome === 'SKIP' ? { reason: 'it needs an id', enableWith: '--pending-order ID' } : null,
    consumedOrders: [],
    durationMs: 3,
  };
}

/** A result made of these checks, its summary counted from them. */
export function resultOf(checks: CheckResult[]): ConformanceResult {
  const summary = summarise(checks, checks.length);
  return {
    schemaVersion: 1,
    tool: 'petstore conformance',
    contractVersion: '1.0.0',
    baseUrl: 'http://h/v1',
    destructive: false,
    startedAt: '2026-01-01T00:00:00.000Z',
    durationMs: 12,
    outcome: summary.failed > 0 ? 'fail' : 'pass',
    unreachable: null,
    summary,
    checks,
    coverage: [
      {
        operationId: 'listOrders',
        method: 'GET',
        path: '/store/orders',
        deprecated: false,
        stability: null,
        documented: [200, 401],
        exercised: [200],
      },
    ],
  };
}
