/**
 * `--no-bodies`: a report without the response bodies. Redaction finds the forms of the key listed in
 * docs/conformance.md, but a target that holds the key can always write it in a form no redaction knows
 * (encrypted, reversed, split across fields); a report that carries no body cannot carry that either.
 */
import type { CheckResult, ConformanceResult } from '../types.js';

/** What every report says when the bodies were left out. */
export const BODIES_OMITTED = 'Response bodies are left out of this report (--no-bodies).';

/**
 * The result with every finding's body excerpt emptied and `bodiesOmitted` set, for every reporter.
 *
 * @example renderJson(withoutBodies(result))
 */
export function withoutBodies<T extends Pick<ConformanceResult, 'checks'>>(
  result: T,
): T & { bodiesOmitted: true } {
  const checks: CheckResult[] = result.checks.map((check) => ({
    ...check,
    findings: check.findings.map((f) => (f.actual ? { ...f, actual: { ...f.actual, bodyExcerpt: '' } } : f)),
  }));
  return { ...result, checks, bodiesOmitted: true };
}
