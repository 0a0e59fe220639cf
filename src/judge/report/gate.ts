/** `--fail-on`: decided once by {@link applyGate} and carried in the result, so no reporter or exit code disagrees. */
import type { CheckResult, FailOn } from '../types.js';
import type { ReportInput } from './input.js';

export const FAIL_ON = ['fail', 'warn'] as const satisfies readonly FailOn[];

/** @example gates({ outcome: 'WARN' }, 'warn') // true */
export function gates(check: Pick<CheckResult, 'outcome'>, failOn: FailOn): boolean {
  return check.outcome === 'FAIL' || (failOn === 'warn' && check.outcome === 'WARN');
}

/** The run's outcome under the gate; a run that stopped before judging keeps its own. */
export function gatedOutcome(
  input: Pick<ReportInput, 'outcome' | 'checks'>,
  failOn: FailOn,
): ReportInput['outcome'] {
  if (input.outcome !== 'pass' && input.outcome !== 'fail') return input.outcome;
  return input.checks.some((check) => gates(check, failOn)) ? 'fail' : 'pass';
}

/** @example verdictLabel('not-ready') // 'NOT READY' */
export function verdictLabel(outcome: ReportInput['outcome']): string {
  if (outcome === 'pass' || outcome === 'fail') return outcome === 'pass' ? 'PASSED' : 'FAILED';
  return outcome.toUpperCase().replace('-', ' ');
}

/** The result with the gate applied to `outcome` and `failOn` recorded: render and exit from this value. */
export function applyGate<T extends ReportInput>(input: T, failOn: FailOn): T & { failOn: FailOn } {
  return { ...input, outcome: gatedOutcome(input, failOn), failOn };
}
