/** The line every report gives the suite's retries after a gateway's 429 or 503 (D22). */
import type { ReportInput } from './input.js';

/** Requests named in the line; the JSON report lists them all. */
const NAMED = 5;

/** @example retriesLine(result) // 'Retried after 429 or 503 (D22): 2 requests: GET http://h/v1/store/orders (429, 200); …' */
export function retriesLine(
  input: Pick<ReportInput, 'retries' | 'retriesNotListed' | 'retryPolicy'>,
): string | null {
  const retries = input.retries ?? [];
  const total = retries.length + (input.retriesNotListed ?? 0);
  if (total === 0) return null;
  const named = retries
    .slice(0, NAMED)
    .map((r) => `${r.method} ${r.url} (${r.attempts} attempts: ${r.statuses.join(', ')})`)
    .join('; ');
  const more = total > NAMED ? `; ${total - NAMED} more in the JSON report` : '';
  const policy = input.retryPolicy;
  const waited = policy
    ? `; ${(policy.waitedMs / 1000).toFixed(1)} s waited of the ${(policy.budgetMs / 1000).toFixed(1)} s retry budget`
    : '';
  return `Retried after 429 or 503 (D22): ${total} request${total === 1 ? '' : 's'}: ${named}${more}${waited}`;
}
