/**
 * The proxy's findings as a report of the suite's shape ({@link ConformanceResult}), so the suite's own
 * reporters write it: one check per rule the proxy watches, PASS when nothing broke it, FAIL or WARN with
 * every finding (the exchange redacted, a curl line) otherwise. The client's findings are their own
 * checks, `client.*`, always at warning level: they never fail the run.
 */

import type { Contract } from '../contract/index.js';
import { MAX_LIST_BYTES, type Reading } from '../judge/observer.js';
import { operationCoverage } from '../judge/report/input.js';
import type { CheckResult, ConformanceResult, Level } from '../judge/types.js';
import { type CheckCount, MAX_KEPT_FINDING_BYTES, MAX_KEPT_FINDINGS, type ProxyFinding } from './findings.js';

/** The rules the proxy watches on every exchange and across them, with what each means. */
export const WATCHED_RULES: ReadonlyArray<{ id: string; title: string; citation: string; level: Level }> = [
  {
    id: 'exchange.status',
    title: 'every answer has a status the document lists for the operation',
    citation: '§4, §7',
    level: 'failure',
  },
  {
    id: 'exchange.auth',
    title: 'a request without a bearer token is answered 401 with an Error',
    citation: '§5, D6, D7',
    level: 'failure',
  },
  {
    id: 'exchange.body',
    title: 'every success body is as documented: valid, exact int64, JSON; 204 without a body',
    citation: '§4, D8, D15',
    level: 'failure',
  },
  {
    id: 'exchange.error-body',
    title: 'every error is an Error whose status equals the HTTP status',
    citation: '§7, D3, D5, D15',
    level: 'failure',
  },
  { id: 'exchange.server-error', title: 'no answer is 5xx', citation: '§7, D9, D10', level: 'failure' },
  {
    id: 'exchange.route',
    title: 'paths and methods outside the document are answered with 4xx',
    citation: 'D10',
    level: 'warning',
  },
  {
    id: 'exchange.headers',
    title: 'the deprecated pets read carries Deprecation and Sunset',
    citation: '§9, D11',
    level: 'warning',
  },
  {
    id: 'state.second-204',
    title: 'an order already cancelled is not cancelled again with 204',
    citation: '§3, D2',
    level: 'failure',
  },
  {
    id: 'state.cancelled-still-listed',
    title: 'a cancelled order does not stay listed unchanged where cancelled orders leave the list',
    citation: '§3, D2, D16',
    level: 'failure',
  },
  {
    id: 'state.cancelled-unlisted',
    title: 'the list and the cancels agree on order ids',
    citation: '§4.1, D8',
    level: 'failure',
  },
  {
    id: 'state.refused-then-gone',
    title: 'a shipped order refused with 409 stays listed',
    citation: '§3, §4.1',
    level: 'failure',
  },
  {
    id: 'state.cancel-after-refusal',
    title: 'an order refused as shipped (409) is never cancelled later: shipped stays shipped',
    citation: '§3',
    level: 'failure',
  },
  {
    id: 'state.cancelled-returns',
    title: 'a cancelled order that left the list never comes back',
    citation: '§3, D2, D16',
    level: 'failure',
  },
  {
    id: 'state.key-inconsistent',
    title: 'a key is accepted on every operation or refused on every operation',
    citation: '§5',
    level: 'failure',
  },
  {
    id: 'state.scheme-case',
    title: 'a key accepted under `Bearer` is accepted under `bearer` too (scheme names are case-insensitive)',
    citation: 'D7, RFC 9110 §11.1',
    level: 'warning',
  },
  {
    id: 'state.409-on-pending',
    title: 'an order listed with complete: false is not refused as shipped',
    citation: '§3, D1',
    level: 'warning',
  },
  {
    id: 'state.204-on-complete',
    title: 'an order listed with complete: true is not cancelled with 204',
    citation: '§3, D1',
    level: 'warning',
  },
  {
    id: 'state.404-on-listed',
    title: 'an order the last list showed is not refused as not found',
    citation: '§4.2, §7',
    level: 'warning',
  },
  {
    id: 'state.vanished',
    title: 'an order leaves the list only when cancelled (a failure under --sole-client)',
    citation: '§4.1',
    level: 'warning',
  },
  {
    id: 'state.changed',
    title: 'orders nobody touched stay unchanged in the list (a failure under --sole-client)',
    citation: '§4.1',
    level: 'warning',
  },
];

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
  /** The contract the traffic was judged against. */
  contract: Contract;
  upstreamUrl: string;
  startedAt: string;
  durationMs: number;
  /** The findings kept for display. */
  findings: readonly ProxyFinding[];
  /** Every finding counted, by check id, kept or not: the verdict is made of these. */
  counts: ReadonlyMap<string, CheckCount>;
  exchanges: number;
  statuses: ReadonlyMap<string, ReadonlySet<number>>;
  reading: Reading;
  unjudgedBodies: number;
}

/** What the proxy learnt or left unjudged, as notes of the check they concern. */
function notesFor(id: string, run: ProxyRun): string[] {
  const { dropped, keptListed } = run.reading;
  if (id === 'state.cancelled-still-listed' && dropped + keptListed > 0) {
    return [
      `D16 reading: of the orders cancelled with 204, ${dropped} left the next list and ${keptListed} stayed listed`,
    ];
  }
  const forgotten = run.reading.forgottenScopes ?? 0;
  if (id.startsWith('state.') && forgotten > 0) {
    return [
      `${forgotten} key or session scope(s) were forgotten, oldest first, to keep the remembered lists within ${MAX_LIST_BYTES / 1024 / 1024} MiB: what they saw before is no longer compared`,
    ];
  }
  if (id === 'exchange.body' && run.unjudgedBodies > 0) {
    return [
      `${run.unjudgedBodies} answer(s) passed through with their body unjudged (over the copy bound, or an encoding the proxy cannot read)`,
    ];
  }
  const notKept = run.counts.get(id)?.dropped ?? 0;
  if (notKept > 0) {
    return [
      `${notKept} of its ${run.counts.get(id)?.count} finding(s) were counted (and printed) but not kept: the proxy keeps ${MAX_KEPT_FINDINGS.toLocaleString('en')} findings or ${MAX_KEPT_FINDING_BYTES / 1024 / 1024} MiB for the server and as many for the client`,
    ];
  }
  return [];
}

/**
 * The run as a report for the suite's reporters.
 *
 * @example renderJson(proxyResult(run))
 */
export function proxyResult(run: ProxyRun): ConformanceResult {
  const byCheck = new Map<string, ProxyFinding[]>();
  for (const found of run.findings) {
    const id = checkIdOf(found);
    const list = byCheck.get(id) ?? [];
    list.push(found);
    byCheck.set(id, list);
  }
  const ids = [
    ...WATCHED_RULES.map((r) => r.id),
    ...[...run.counts.keys()].filter((id) => !WATCHED_RULES.some((r) => r.id === id)),
  ];
  const checks = ids.map((id): CheckResult => {
    const found = byCheck.get(id) ?? [];
    const counted = run.counts.get(id);
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
          ? `nothing broke it in ${run.exchanges} exchange(s)`
          : first
            ? `${total} finding(s), first kept: ${first.finding.message}`
            : `${total} finding(s), none kept (over the bounds on kept findings)`,
      findings: found.map((f) => ({
        ...f.finding,
        message: `exchange #${f.exchange} (${f.scope}, ${f.at}): ${f.finding.message}`,
      })),
      notes: notesFor(id, run),
      skip: null,
      consumedOrders: [],
      durationMs: 0,
    };
  });
  const count = (o: CheckResult['outcome']) => checks.filter((c) => c.outcome === o).length;
  return {
    schemaVersion: 1,
    tool: 'petstore proxy',
    contractVersion: run.contract.version,
    baseUrl: run.upstreamUrl,
    destructive: false,
    startedAt: run.startedAt,
    durationMs: run.durationMs,
    outcome: count('FAIL') > 0 ? 'fail' : 'pass',
    unreachable: null,
    summary: {
      total: checks.length,
      passed: count('PASS'),
      failed: count('FAIL'),
      warned: count('WARN'),
      skipped: 0,
      notSelected: 0,
      requests: run.exchanges,
    },
    checks,
    coverage: operationCoverage(run.contract, (id) => run.statuses.get(id) ?? new Set<number>()),
  };
}
