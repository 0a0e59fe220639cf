/**
 * `--fail-on`: which verdicts fail a run. By default only failures do (exit 1) and warnings are reported;
 * `--fail-on warn` makes every warning fail the run too, and the reports show it as failing.
 */
import type { CheckResult } from '../types.js';
import type { ReportInput } from './input.js';

export const FAIL_ON = ['fail', 'warn'] as const;
export type FailOn = (typeof FAIL_ON)[number];

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
 * under `warn`. An unreachable target stays unreachable.
 *
 * @example gatedOutcome(result, 'warn') === 'fail' // when result has a WARN
 */
export function gatedOutcome(
  input: Pick<ReportInput, 'outcome' | 'checks'>,
  failOn: FailOn,
): ReportInput['outcome'] {
  if (input.outcome === 'unreachable') return 'unreachable';
  return input.checks.some((check) => gates(check, failOn)) ? 'fail' : 'pass';
}
