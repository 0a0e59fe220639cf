/** What a report is made from (built by the suite or the proxy alike), and the lines every report gives it. */
import type { Contract } from '../../contract/index.js';
import type {
  CheckResult,
  ConformanceResult,
  ConformanceSummary,
  OperationCoverage,
  RetriedRequest,
} from '../types.js';

/** A {@link ConformanceResult} as the reporters read it: any tool's, without `schemaVersion`. */
export type ReportInput = Omit<
  ConformanceResult,
  'schemaVersion' | 'tool' | 'destructive' | 'checks' | 'coverage' | 'retries'
> & {
  /** For the title: `petstore conformance`. */
  tool: string;
  destructive?: boolean;
  checks: readonly CheckResult[];
  coverage: readonly OperationCoverage[];
  retries?: readonly RetriedRequest[];
};

/** @example writeFileSync('conformance.json', renderJson(result)) */
export function renderJson(result: ConformanceResult): string {
  return `${JSON.stringify(result, null, 2)}\n`;
}

export function summarise(
  checks: readonly CheckResult[],
  requests: number,
  notSelected = 0,
): ConformanceSummary {
  const count = (outcome: CheckResult['outcome']) => checks.filter((c) => c.outcome === outcome).length;
  const [passed, failed, warned, skipped] = [count('PASS'), count('FAIL'), count('WARN'), count('SKIP')];
  return { total: checks.length, passed, failed, warned, skipped, notSelected, requests };
}

/** Which documented responses of each operation a run received. */
export function operationCoverage(
  contract: Contract,
  statusesOf: (operationId: string) => ReadonlySet<number>,
): OperationCoverage[] {
  return contract.operations.map(({ operationId, method, path, deprecated, stability, statuses }) => {
    const seen = statusesOf(operationId);
    const operation = { operationId, method: method.toUpperCase(), path, deprecated, stability };
    return { ...operation, documented: [...statuses], exercised: statuses.filter((s) => seen.has(s)) };
  });
}

export function coverageLine(coverage: readonly OperationCoverage[]): string {
  const parts = coverage.map((op) => {
    const missing = op.documented.filter((s) => !op.exercised.includes(s));
    const seen = op.exercised.length > 0 ? op.exercised.join(' ') : 'none';
    return `${op.operationId} ${op.exercised.length}/${op.documented.length} (${seen}${missing.length > 0 ? `; not exercised: ${missing.join(' ')}` : ''})`;
  });
  const total = coverage.reduce((n, op) => n + op.documented.length, 0);
  const exercised = coverage.reduce((n, op) => n + op.exercised.length, 0);
  return `Spec coverage: ${exercised}/${total} documented responses: ${parts.join(' · ')}`;
}

/** Requests named in the retries line; the JSON report lists them all. */
const RETRIES_NAMED = 5;

/** @example retriesLine(result) // 'Retried after 429 or 503 (D22): 2 requests: GET http://h/v1/store/orders (429, 200); …' */
export function retriesLine(
  input: Pick<ReportInput, 'retries' | 'retriesNotListed' | 'retryPolicy'>,
): string | null {
  const retries = input.retries ?? [];
  const total = retries.length + (input.retriesNotListed ?? 0);
  if (total === 0) return null;
  const named = retries
    .slice(0, RETRIES_NAMED)
    .map((r) => `${r.method} ${r.url} (${r.attempts} attempts: ${r.statuses.join(', ')})`)
    .join('; ');
  const more = total > RETRIES_NAMED ? `; ${total - RETRIES_NAMED} more in the JSON report` : '';
  const policy = input.retryPolicy;
  const waited = policy
    ? `; ${(policy.waitedMs / 1000).toFixed(1)} s waited of the ${(policy.budgetMs / 1000).toFixed(1)} s retry budget`
    : '';
  return `Retried after 429 or 503 (D22): ${total} request${total === 1 ? '' : 's'}: ${named}${more}${waited}`;
}

/** @example environmentLine(result) // 'Live environment: 3 changes by other clients seen; judged in shared mode (D16): …' */
export function environmentLine(input: Pick<ReportInput, 'environment'>): string | null {
  const env = input.environment;
  if (env === undefined || (!env.live && env.setBy === 'default')) return null;
  const seen = `${env.changesByOthers} change${env.changesByOthers === 1 ? '' : 's'} by other clients seen`;
  const mode =
    env.mode === 'shared'
      ? 'judged in shared mode (D16): a change to an order no request of the suite named is a warning that another client may have made it'
      : 'judged as the only client (--sole-client, D16): every change the suite did not make is a failure';
  const head = env.live ? `Live environment: ${seen}` : 'No change by other clients seen';
  return `${head}; ${mode}. ${env.reason}`;
}

/** `--no-bodies`: a target can write the key in a form redaction does not know; a report without bodies cannot carry it. */
export const BODIES_OMITTED = 'Response bodies are left out of this report (--no-bodies).';

/** @example renderJson(withoutBodies(result)) */
export function withoutBodies<T extends Pick<ConformanceResult, 'checks'>>(
  result: T,
): T & { bodiesOmitted: true } {
  const checks: CheckResult[] = result.checks.map((check) => ({
    ...check,
    findings: check.findings.map((f) => (f.actual ? { ...f, actual: { ...f.actual, bodyExcerpt: '' } } : f)),
  }));
  return { ...result, checks, bodiesOmitted: true };
}
