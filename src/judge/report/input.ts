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
  /** The tool that judged, for the title: `petstore conformance`. */
  tool: string;
  baseUrl: string;
  contractVersion: string;
  /** Whether the run could change data; shown next to the title when known. */
  destructive?: boolean;
  startedAt: string;
  durationMs: number;
  /** The run's verdict, under the gate of `failOn` (gate.ts); every reporter shows this one. */
  outcome: ConformanceResult['outcome'];
  /** Which verdicts fail the run; absent means `fail` (only failures). */
  failOn?: FailOn;
  unreachable: Unreachable | null;
  /** Set when a signal stopped the run: what stopped it and where. */
  interrupted?: string;
  summary: ConformanceSummary;
  /** Every verdict, in the order it was reached. */
  checks: readonly CheckResult[];
  coverage: readonly OperationCoverage[];
  /** The requests the suite sent again after a gateway's 429 or 503 (D22); absent for the proxy. */
  retries?: readonly RetriedRequest[];
  retriesNotListed?: number;
  retryPolicy?: RetryReport;
  /** The response bodies were left out (omit-bodies.ts); each report says so. */
  bodiesOmitted?: boolean;
  /** Whether other clients were seen at work, and how the run judged (D16); absent for the proxy. */
  environment?: EnvironmentReport;
}

/**
 * The summary of a list of verdicts, counted from them.
 *
 * @example summarise(checks, exchanges.length) // { total: 43, passed: 35, … }
 */
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

/**
 * Which documented responses of each operation a run received, from the statuses seen per operation.
 *
 * @example operationCoverage(contract, (id) => seen.get(id) ?? new Set())
 */
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
