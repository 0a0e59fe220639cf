/**
 * One finding per cause for the pretty and HTML reports: one bug often fails many checks (a 401 body
 * without `status`), and a reader wants it once with the checks it broke.
 */
import type { CheckResult, Finding } from '../types.js';

export interface CauseGroup {
  outcome: 'FAIL' | 'WARN';
  /** The message without the request it was seen on. */
  cause: string;
  /** `null` when no response arrived or the checks gave only a message. */
  status: number | null;
  checks: CheckResult[];
  findings: Finding[];
}

/** `GET /store/orders → 401: `, `DELETE /store/orders/7 `, `GET http://h/v1/store/orders: `. */
const REQUEST_PREFIX = /^[A-Z]{3,7} \S+?(?: → \d{3})?:? /;

/** A finding's message without the request it was seen on, so one fault on two requests reads the same. */
export function causeOf(message: string): string {
  return message.replace(REQUEST_PREFIX, '');
}

/**
 * The checks of one outcome grouped by cause, in order of first appearance.
 *
 * @example groupByCause(result.checks, 'FAIL').filter((g) => g.checks.length > 1)
 */
export function groupByCause(checks: readonly CheckResult[], outcome: 'FAIL' | 'WARN'): CauseGroup[] {
  const groups = new Map<string, CauseGroup>();
  const add = (check: CheckResult, cause: string, status: number | null, finding: Finding | null) => {
    const key = `${status ?? '-'} ${cause}`;
    let group = groups.get(key);
    if (!group) {
      group = { outcome, cause, status, checks: [], findings: [] };
      groups.set(key, group);
    }
    if (!group.checks.includes(check)) group.checks.push(check);
    if (finding) group.findings.push(finding);
  };
  for (const check of checks) {
    if (check.outcome !== outcome) continue;
    if (check.findings.length === 0) add(check, causeOf(check.message), null, null);
    for (const finding of check.findings)
      add(check, causeOf(finding.message), finding.actual?.status ?? null, finding);
  }
  return [...groups.values()];
}
