/**
 * The proxy's findings in the suite's report shape, so the suite's reporters write it: one check per rule.
 * The client's findings are their own checks, `client.*`, at warning level: they never fail the run.
 */
import type { Contract } from '../contract/index.js';
import { MAX_LIST_BYTES } from '../judge/observer.js';
import { operationCoverage, summarise } from '../judge/report/input.js';
import type { CheckResult, ConformanceResult, Level } from '../judge/types.js';
import { type FindingLog, MAX_KEPT_FINDING_BYTES, MAX_KEPT_FINDINGS, type ProxyFinding } from './findings.js';
import type { TrafficJudge } from './traffic-judge.js';

/** The rules the proxy watches on every exchange and across them, in report order. */
const RULES: ReadonlyArray<readonly [Level, Record<string, readonly [citation: string, title: string]>]> = [
  [
    'failure',
    {
      'exchange.status': ['§4, §7', 'every answer has a status the document lists for the operation'],
      'exchange.auth': ['§5, D6, D7', 'a request without a bearer token is answered 401 with an Error'],
      'exchange.body': [
        '§4, D8, D15',
        'every success body is as documented: valid, exact int64, JSON; 204 without a body',
      ],
      'exchange.error-body': [
        '§7, D3, D5, D15',
        'every error is an Error whose status equals the HTTP status',
      ],
      'exchange.server-error': ['§7, D9, D10', 'no answer is 5xx'],
    },
  ],
  [
    'warning',
    {
      'exchange.route': ['D10', 'paths and methods outside the document are answered with 4xx'],
      'exchange.headers': ['§9, D11', 'the deprecated pets read carries Deprecation and Sunset'],
    },
  ],
  [
    'failure',
    {
      'state.second-204': ['§3, D2', 'an order already cancelled is not cancelled again with 204'],
      'state.cancelled-still-listed': [
        '§3, D2, D16',
        'a cancelled order does not stay listed unchanged where cancelled orders leave the list',
      ],
      'state.cancelled-unlisted': ['§4.1, D8', 'the list and the cancels agree on order ids'],
      'state.refused-then-gone': ['§3, §4.1', 'a shipped order refused with 409 stays listed'],
      'state.cancel-after-refusal': [
        '§3',
        'an order refused as shipped (409) is never cancelled later: shipped stays shipped',
      ],
      'state.cancelled-returns': ['§3, D2, D16', 'a cancelled order that left the list never comes back'],
      'state.key-inconsistent': ['§5', 'a key is accepted on every operation or refused on every operation'],
    },
  ],
  [
    'warning',
    {
      'state.scheme-case': [
        'D7, RFC 9110 §11.1',
        'a key accepted under `Bearer` is accepted under `bearer` too (scheme names are case-insensitive)',
      ],
      'state.409-on-pending': ['§3, D1', 'an order listed with complete: false is not refused as shipped'],
      'state.204-on-complete': ['§3, D1', 'an order listed with complete: true is not cancelled with 204'],
      'state.404-on-listed': ['§4.2, §7', 'an order the last list showed is not refused as not found'],
      'state.vanished': [
        '§4.1',
        'an order leaves the list only when cancelled (a failure under --sole-client)',
      ],
      'state.changed': [
        '§4.1',
        'orders nobody touched stay unchanged in the list (a failure under --sole-client)',
      ],
    },
  ],
];

export const WATCHED_RULES: ReadonlyArray<{ id: string; title: string; citation: string; level: Level }> =
  RULES.flatMap(([level, rules]) =>
    Object.entries(rules).map(([id, [citation, title]]) => ({ id, level, citation, title })),
  );

/** The client's rules (traffic-judge.ts), with what each asks of the client. */
export const CLIENT_TITLES: Record<string, string> = {
  'client.no-key': 'the client sends its key as a Bearer token',
  'client.key-refused': "the server accepts the client's key",
  'client.malformed-id': 'the client sends int64 order ids',
  'client.body': 'the client sends no request body where the operation takes none',
  'client.undocumented': 'the client calls only documented operations',
  'client.stalled': 'the client sends its whole request body without stalling',
};

/** The check a finding belongs to: the proxy's per-exchange rules are the suite's, under `exchange.`. */
export function checkIdOf(found: Pick<ProxyFinding, 'rule' | 'level' | 'party'>): string {
  if (found.party === 'client' || found.rule.startsWith('state.')) return found.rule;
  const id = `exchange.${found.rule}`;
  const watched = WATCHED_RULES.find((r) => r.id === id);
  // A rule the document relaxes for some answers (D3: a 409 body) is its own check at warning level.
  return watched && watched.level !== found.level ? `${id}.${found.level}` : id;
}

export interface ProxyRun {
  contract: Contract;
  startedAt: Date;
  durationMs: number;
  log: FindingLog;
  judge: TrafficJudge;
}

/** What the proxy learnt or left unjudged, as a note of the check it concerns. */
function noteFor(id: string, run: ProxyRun): string | null {
  const { dropped, keptListed, forgottenScopes: forgotten = 0 } = run.judge.tracker.reading;
  if (id === 'state.cancelled-still-listed' && dropped + keptListed > 0) {
    return `D16 reading: of the orders cancelled with 204, ${dropped} left the next list and ${keptListed} stayed listed`;
  }
  if (id.startsWith('state.') && forgotten > 0) {
    return `${forgotten} key or session scope(s) were forgotten, oldest first, to keep the remembered lists within ${MAX_LIST_BYTES / 1024 / 1024} MiB: what they saw before is no longer compared`;
  }
  if (id === 'exchange.body' && run.judge.unjudgedBodies > 0) {
    return `${run.judge.unjudgedBodies} answer(s) passed through with their body unjudged (over the copy bound, or an encoding the proxy cannot read)`;
  }
  const counted = run.log.checks().get(id);
  if (counted && counted.dropped > 0) {
    return `${counted.dropped} of its ${counted.count} finding(s) were counted (and printed) but not kept: the proxy keeps ${MAX_KEPT_FINDINGS.toLocaleString('en')} findings or ${MAX_KEPT_FINDING_BYTES / 1024 / 1024} MiB for the server and as many for the client`;
  }
  return null;
}

/** The run as a report for the suite's reporters. */
export function proxyResult(run: ProxyRun): ConformanceResult {
  const byCheck = new Map<string, ProxyFinding[]>();
  for (const found of run.log.all()) {
    const id = checkIdOf(found);
    const list = byCheck.get(id) ?? [];
    list.push(found);
    byCheck.set(id, list);
  }
  const ids = new Set([...WATCHED_RULES.map((r) => r.id), ...run.log.checks().keys()]);
  const checks = [...ids].map((id): CheckResult => {
    const found = byCheck.get(id) ?? [];
    const counted = run.log.checks().get(id);
    const total = counted?.count ?? 0;
    const watched = WATCHED_RULES.find((r) => r.id === id);
    const first = found[0];
    const level: Level = counted?.level ?? watched?.level ?? 'warning';
    const citation =
      watched && !id.endsWith('.warning')
        ? watched.citation
        : [...new Set(found.map((f) => f.citation))].join('; ');
    const outcome = total === 0 ? 'PASS' : level === 'failure' ? 'FAIL' : 'WARN';
    return {
      id,
      title: watched?.title ?? CLIENT_TITLES[id] ?? (first ? `${first.rule} (${first.party})` : id),
      citation,
      level,
      outcome,
      operationId: null,
      message:
        total === 0
          ? `nothing broke it in ${run.judge.exchanges} exchange(s)`
          : first
            ? `${total} finding(s), first kept: ${first.finding.message}`
            : `${total} finding(s), none kept (over the bounds on kept findings)`,
      findings: found.map((f) => ({
        ...f.finding,
        message: `exchange #${f.exchange} (${f.scope}, ${f.at}): ${f.finding.message}`,
      })),
      notes: [noteFor(id, run)].filter((note) => note !== null),
      skip: null,
      consumedOrders: [],
      durationMs: 0,
    };
  });
  const summary = summarise(checks, run.judge.exchanges);
  return {
    schemaVersion: 1,
    tool: 'petstore proxy',
    contractVersion: run.contract.version,
    baseUrl: run.judge.options.upstream.baseUrl,
    destructive: false,
    startedAt: run.startedAt.toISOString(),
    durationMs: run.durationMs,
    outcome: summary.failed > 0 ? 'fail' : 'pass',
    unreachable: null,
    summary,
    checks,
    coverage: operationCoverage(run.contract, (id) => run.judge.statuses.get(id) ?? new Set<number>()),
  };
}
