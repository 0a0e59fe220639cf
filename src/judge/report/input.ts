/** What a report is made from: plain verdicts and a summary, built by the suite or the proxy alike. */
import type { Contract } from '../../contract/index.js';
import type {
  CheckResult,
  ConformanceResult,
  ConformanceSummary,
  EnvironmentReport,
  FailOn,
  OperationCoverage,
  RetriedRequest,
  RetryReport,
  Unreachable,
} from '../types.js';

export interface ReportInput {
  /** For the title: `petstore conformance`. */
  tool: string;
  baseUrl: string;
  contractVersion: string;
  destructive?: boolean;
  startedAt: string;
  durationMs: number;
  /** The run's verdict under the gate of `failOn` (absent: `fail`); every reporter shows this one. */
  outcome: ConformanceResult['outcome'];
  failOn?: FailOn;
  unreachable: Unreachable | null;
  /** Set when a signal stopped the run: what stopped it and where. */
  interrupted?: string;
  summary: ConformanceSummary;
  checks: readonly CheckResult[];
  coverage: readonly OperationCoverage[];
  /** The suite's retries after a gateway's 429 or 503 (D22). */
  retries?: readonly RetriedRequest[];
  retriesNotListed?: number;
  retryPolicy?: RetryReport;
  bodiesOmitted?: boolean;
  /** Other clients seen at work, and how the run judged them (D16). */
  environment?: EnvironmentReport;
}

/** The summary of a list of verdicts, counted from them. */
export function summarise(
  checks: readonly CheckResult[],
  requests: number,
  notSelected = 0,
): ConformanceSummary {
  const count = (outcome: CheckResult['outcome']) => checks.filter((c) => c.outcome === outcome).length;
  return {
    total: checks.length,
    passed: count('PASS'),
    failed: count('FAIL'),
    warned: count('WARN'),
    skipped: count('SKIP'),
    notSelected,
    requests,
  };
}

/** Which documented responses of each operation a run received, from the statuses seen per operation. */
export function operationCoverage(
  contract: Contract,
  statusesOf: (operationId: string) => ReadonlySet<number>,
): OperationCoverage[] {
  return contract.operations.map((op) => {
    const seen = statusesOf(op.operationId);
    return {
      operationId: op.operationId,
      method: op.method.toUpperCase(),
      path: op.path,
      deprecated: op.deprecated,
      stability: op.stability,
      documented: [...op.statuses],
      exercised: op.statuses.filter((status) => seen.has(status)),
    };
  });
}
