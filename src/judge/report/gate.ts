/**
 * `--fail-on`: which verdicts fail a run. By default only failures do (exit 1) and warnings are reported;
 * `--fail-on warn` makes every warning fail the run too, and the reports show it as failing.
 *
 * The gate is decided once, by {@link applyGate}, and travels in the result: every reporter (pretty, JSON,
 * JUnit, HTML) and the CLI's exit code read the same `outcome` and `failOn`, so no two of them can disagree.
 */
import type { CheckResult, FailOn } from '../types.js';
import type { ReportInput } from './input.js';

export type { FailOn } from '../types.js';
export const FAIL_ON = ['fail', 'warn'] as const satisfies readonly FailOn[];

/**
 * Whether a check's verdict fails the run under this gate.
 *
 * @example gates({ outcome: 'WARN' }, 'warn') // true
 */
export function gates(check: Pick<CheckResult, 'outcome'>, failOn: FailOn): boolean {
  return check.outcome === 'FAIL' || (failOn === 'warn' && check.outcome === 'WARN');
}

/**
 * The run's outcome under the gate: a run with warnings and no failure passes under `fail` and fails
 * under `warn`. A run that stopped before judging (unreachable, not ready, a setup error) keeps its outcome.
 *
 * @example gatedOutcome(result, 'warn') === 'fail' // when result has a WARN
 */
export function gatedOutcome(
  input: Pick<ReportInput, 'outcome' | 'checks'>,
  failOn: FailOn,
): ReportInput['outcome'] {
  if (input.outcome !== 'pass' && input.outcome !== 'fail') return input.outcome;
  return input.checks.some((check) => gates(check, failOn)) ? 'fail' : 'pass';
}

/**
 * The verdict's word in every report: `PASSED`, `FAILED`, or why nothing was judged.
 *
 * @example verdictLabel('not-ready') // 'NOT READY'
 */
export function verdictLabel(outcome: ReportInput['outcome']): string {
  return VERDICT_LABELS[outcome];
}

const VERDICT_LABELS: Record<ReportInput['outcome'], string> = {
  pass: 'PASSED',
  fail: 'FAILED',
  unreachable: 'UNREACHABLE',
  'not-ready': 'NOT READY',
  'setup-error': 'SETUP ERROR',
  interrupted: 'INTERRUPTED',
};

/**
 * The result with the gate applied: `outcome` becomes the run's verdict under `failOn`, and `failOn` is
 * recorded next to it (the checks keep their verdicts as judged). Render and exit from this one value.
 *
 * @example
 * const gated = applyGate(result, 'warn');
 * writeFileSync('conformance.json', renderJson(gated)); // "outcome": "fail", "failOn": "warn"
 * process.exitCode = gated.outcome === 'pass' ? 0 : 1;
 */
export function applyGate<T extends ReportInput>(input: T, failOn: FailOn): T & { failOn: FailOn } {
  return { ...input, outcome: gatedOutcome(input, failOn), failOn };
}
