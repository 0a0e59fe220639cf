/**
 * `--no-bodies`: redaction knows the key's usual forms, but a target can always write it in another
 * (encrypted, reversed); a report without bodies cannot carry it at all.
 */
import type { CheckResult, ConformanceResult } from '../types.js';

/** What every report says when the bodies were left out. */
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
