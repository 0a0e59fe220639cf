/** The findings in the suite's report shape, a check per rule; the client's (`client.*`) never fail a run. */
import { MAX_LIST_BYTES, type RuleRow, STATE_RULES } from '../judge/observer.js';
import { operationCoverage, summarise } from '../judge/report/input.js';
import type { CheckResult, ConformanceResult, Level } from '../judge/types.js';
import { type FindingLog, MAX_KEPT_FINDING_BYTES, MAX_KEPT_FINDINGS, type ProxyFinding } from './findings.js';
import type { TrafficJudge } from './traffic-judge.js';

/** The rules the proxy watches on every exchange, then the observer's across them, in report order. */
export const WATCHED_RULES: Readonly<Record<string, RuleRow>> = {
  'exchange.status': ['§4, §7', 'failure', 'every answer has a status the document lists for the operation'],
  'exchange.auth': [
    '§5, D6, D7',
    'failure',
    'a request without a bearer token is answered 401 with an Error',
  ],
  'exchange.body': [
    '§4, D8, D15',
    'failure',
    'every success body is as documented: valid, exact int64, JSON; 204 without a body',
  ],
  'exchange.error-body': [
    '§7, D3, D5, D15',
    'failure',
    'every error is an Error whose status equals the HTTP status',
  ],
  'exchange.server-error': ['§7, D9, D10', 'failure', 'no answer is 5xx'],
  'exchange.route': ['D10', 'warning', 'paths and methods outside the document are answered with 4xx'],
  'exchange.headers': ['§9, D11', 'warning', 'the deprecated pets read carries Deprecation and Sunset'],
  ...STATE_RULES,
};

/** The client's rules (traffic-judge.ts), all warnings, with what each asks of the client. */
export const CLIENT_RULES: Record<string, readonly [citation: string, title: string]> = {
  'client.no-key': ['§5, D7', 'the client sends its key as a Bearer token'],
  'client.key-refused': ['§5', "the server accepts the client's key"],
  'client.malformed-id': ['§4.2, D9', 'the client sends int64 order ids'],
  'client.body': ['§4', 'the client sends no request body where the operation takes none'],
  'client.undocumented': ['D10', 'the client calls only documented operations'],
  'client.stalled': ['D20', 'the client sends its whole request body without stalling'],
};

/** The check a finding belongs to: the proxy's per-exchange rules are the suite's, under `exchange.`. */
export function checkIdOf(found: Pick<ProxyFinding, 'rule' | 'level' | 'party'>): string {
  if (found.party === 'client' || found.rule.startsWith('state.')) return found.rule;
  const id = `exchange.${found.rule}`;
  const level = WATCHED_RULES[id]?.[1];
  // A rule the document relaxes for some answers (D3: a 409 body) is its own check at warning level.
  return level !== undefined && level !== found.level ? `${id}.${found.level}` : id;
}

/** What the proxy learnt or left unjudged, as a note of the check it concerns. */
function noteFor(id: string, log: FindingLog, judge: TrafficJudge): string | null {
  const { dropped, keptListed, forgottenScopes: forgotten = 0 } = judge.tracker.reading;
  if (id === 'state.cancelled-still-listed' && dropped + keptListed > 0) {
    return `D16 reading: of the orders cancelled with 204, ${dropped} left the next list and ${keptListed} stayed listed`;
  }
  if (id.startsWith('state.') && forgotten > 0) {
    return `${forgotten} key or session scope(s) were forgotten, oldest first, to keep the remembered lists within ${MAX_LIST_BYTES / 1024 / 1024} MiB: what they saw before is no longer compared`;
  }
  if (id === 'exchange.body' && judge.unjudgedBodies > 0) {
    return `${judge.unjudgedBodies} answer(s) passed through with their body unjudged (over the copy bound, or an encoding the proxy cannot read)`;
  }
  const counted = log.checks.get(id);
  if (counted && counted.dropped > 0) {
    return `${counted.dropped} of its ${counted.count} finding(s) were counted (and printed) but not kept: the proxy keeps ${MAX_KEPT_FINDINGS.toLocaleString('en')} findings or ${MAX_KEPT_FINDING_BYTES / 1024 / 1024} MiB for the server and as many for the client`;
  }
  return null;
}

export function proxyResult(
  startedAt: Date,
  log: FindingLog,
  judge: TrafficJudge,
  durationMs: number,
): ConformanceResult {
  const { contract } = judge.options;
  const ids = new Set([...Object.keys(WATCHED_RULES), ...log.checks.keys()]);
  const checks = [...ids].map((id): CheckResult => {
    const found = log.kept.filter((f) => checkIdOf(f) === id);
    const counted = log.checks.get(id);
    const total = counted?.count ?? 0;
    const [watchedCitation, watchedLevel, watchedTitle] = WATCHED_RULES[id] ?? [];
    const first = found[0];
    const level: Level = counted?.level ?? watchedLevel ?? 'warning';
    const citation = watchedCitation ?? [...new Set(found.map((f) => f.citation))].join('; ');
    const outcome = total === 0 ? 'PASS' : level === 'failure' ? 'FAIL' : 'WARN';
    return {
      id,
      title: watchedTitle ?? CLIENT_RULES[id]?.[1] ?? (first ? `${first.rule} (${first.party})` : id),
      citation,
      level,
      outcome,
      operationId: null,
      message:
        total === 0
          ? `nothing broke it in ${judge.exchanges} exchange(s)`
          : first
            ? `${total} finding(s), first kept: ${first.finding.message}`
            : `${total} finding(s), none kept (over the bounds on kept findings)`,
      findings: found.map((f) => ({
        ...f.finding,
        message: `exchange #${f.exchange} (${f.scope}, ${f.at}): ${f.finding.message}`,
      })),
      notes: [noteFor(id, log, judge)].filter((note) => note !== null),
      skip: null,
      consumedOrders: [],
      durationMs: 0,
    };
  });
  const summary = summarise(checks, judge.exchanges);
  return {
    schemaVersion: 1,
    tool: 'petstore proxy',
    contractVersion: contract.version,
    baseUrl: judge.options.upstream.baseUrl,
    destructive: false,
    startedAt: startedAt.toISOString(),
    durationMs,
    outcome: summary.failed > 0 ? 'fail' : 'pass',
    unreachable: null,
    summary,
    checks,
    coverage: operationCoverage(contract, (id) => judge.statuses.get(id) ?? new Set<number>()),
  };
}
