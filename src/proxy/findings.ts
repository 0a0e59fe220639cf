import { printable } from '../judge/report/finding.js';
import type { Finding, Level } from '../judge/types.js';
import { checkIdOf } from './report.js';

/** The server broke the contract, or the client sent what the contract does not allow. */
export type Party = 'server' | 'client';

/** One finding: `seq` numbers findings as made, `exchange` requests as they arrived; `at` is ISO 8601. */
export interface ProxyFinding {
  seq: number;
  exchange: number;
  at: string;
  /** The rule: a judgement of one exchange (`status`, `body`, …), `state.*` across requests, `client.*`. */
  rule: string;
  citation: string;
  level: Level;
  party: Party;
  /** Whose traffic: `key #1`, `no key`, with the `X-Mock-Session` name when one was sent. Never the key. */
  scope: string;
  method: string;
  /** Below the base URL: `/store/orders/7`. */
  path: string;
  /** `null` when the upstream did not answer. */
  status: number | null;
  finding: Finding;
}

/** The most findings, and bytes of them as JSON, kept for each party; later ones are only counted. */
export const MAX_KEPT_FINDINGS = 10_000;
export const MAX_KEPT_FINDING_BYTES = 8 * 1024 * 1024;
/** Each string of a kept finding is cut to this many characters, each list to so many items. */
const MAX_FINDING_STRING = 2_000;
const MAX_FINDING_ITEMS = 20;

function clipped<T>(value: T): T {
  if (typeof value === 'string' && value.length > MAX_FINDING_STRING) {
    return `${value.slice(0, MAX_FINDING_STRING)}… (cut, ${value.length} characters)` as T;
  }
  if (Array.isArray(value)) return value.slice(0, MAX_FINDING_ITEMS).map(clipped) as T;
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, clipped(v)])) as T;
  }
  return value;
}

export const LABELS: Record<Party, Record<Level, string>> = {
  server: { failure: 'FAIL', warning: 'WARN' },
  client: { failure: 'CLIENT', warning: 'CLIENT' },
};

/** @example findingLine(found) // 'WARN GET /store/orders → 200: order 7 vanished … (§4.1) [key #1]' */
export function findingLine(found: ProxyFinding): string {
  const head = `${found.method} ${found.path}`;
  const said = found.finding.message;
  const prefix = [`${head} answered ${found.status}, `, `${head} → ${found.status}: `, `${head}: `].find(
    (p) => said.startsWith(p),
  );
  const message = said.slice(prefix?.length ?? 0);
  const outcome = found.status === null ? 'no answer' : String(found.status);
  const scope = found.scope === 'key #1' ? '' : ` [${found.scope}]`;
  return printable(
    `${LABELS[found.party][found.level]} ${head} → ${outcome}: ${message} (${found.citation})${scope}`,
  );
}

/** Every finding counts; those kept are bounded per party, so the client's cannot push out the server's. */
export class FindingLog {
  /** The findings kept, oldest first. */
  readonly kept: ProxyFinding[] = [];
  /** How often each check was broken, kept or not: what the verdict and the exit code are made of. */
  readonly checks = new Map<string, { count: number; level: Level; dropped: number }>();
  private readonly keptOf: Record<Party, { findings: number; bytes: number }> = {
    server: { findings: 0, bytes: 0 },
    client: { findings: 0, bytes: 0 },
  };
  /** Findings made, kept or not: the server's failures and warnings, and the client's. */
  readonly tallies = { failures: 0, warnings: 0, client: 0 };
  total = 0;

  constructor(
    private readonly onFinding: (found: ProxyFinding) => void = () => undefined,
    private readonly maxKept: number = MAX_KEPT_FINDINGS,
  ) {}

  add(found: Omit<ProxyFinding, 'seq'>): ProxyFinding {
    this.total += 1;
    const numbered: ProxyFinding = clipped({ seq: this.total, ...found });
    const id = checkIdOf(numbered);
    const counted = this.checks.get(id) ?? { count: 0, level: found.level, dropped: 0 };
    counted.count += 1;
    this.checks.set(id, counted);
    this.tallies[found.party === 'client' ? 'client' : found.level === 'failure' ? 'failures' : 'warnings']++;
    const budget = this.keptOf[found.party];
    const bytes = JSON.stringify(numbered).length;
    if (budget.findings < this.maxKept && budget.bytes + bytes <= MAX_KEPT_FINDING_BYTES) {
      budget.findings += 1;
      budget.bytes += bytes;
      this.kept.push(numbered);
    } else {
      counted.dropped += 1;
    }
    this.onFinding(numbered);
    return numbered;
  }

  /** Up to `limit` kept findings after finding number `since`, oldest first. */
  page(since: number, limit: number): readonly ProxyFinding[] {
    const start = this.kept.findIndex((found) => found.seq > since);
    return start === -1 ? [] : this.kept.slice(start, start + limit);
  }

  get dropped(): number {
    return this.total - this.kept.length;
  }
}
