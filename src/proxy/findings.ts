/**
 * What the proxy found, as it finds it: each finding keeps the rule it broke (with its citation and
 * level), who is at fault (the upstream server or the client), and the exchange as the suite reports
 * one: the request with the key redacted, a curl line, the response excerpt.
 */
import { printable } from '../judge/report/finding.js';
import type { Finding, Level } from '../judge/types.js';

/** The server broke the contract, or the client sent what the contract does not allow. */
export type Party = 'server' | 'client';

export interface ProxyFinding {
  /** 1, 2, 3… in the order found. */
  seq: number;
  /** The exchange it is about (1, 2, 3… in the order requests arrived). */
  exchange: number;
  /** When the exchange started, ISO 8601. */
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
  /** The status the upstream answered, `null` when it did not. */
  status: number | null;
  finding: Finding;
}

/** The most findings kept in memory; later ones are counted and still printed, not kept. */
export const MAX_KEPT_FINDINGS = 10_000;

const LABELS: Record<Party, Record<Level, string>> = {
  server: { failure: 'FAIL', warning: 'WARN' },
  client: { failure: 'CLIENT', warning: 'CLIENT' },
};

/**
 * The one line printed when a finding is made, e.g.
 * `FAIL DELETE /store/orders/7 → 200: expected one of 204, 401, 404, 409 (§4)`. The message loses the
 * method and path the judgement put in front, which the line already shows.
 *
 * @example findingLine(found) // 'WARN GET /store/orders → 200: order 7 vanished … (§4.1) [key #1]'
 */
export function findingLine(found: ProxyFinding): string {
  const head = `${found.method} ${found.path}`;
  const answered = `${head} answered ${found.status}, `;
  const arrow = `${head} → ${found.status}: `;
  let message = found.finding.message;
  if (message.startsWith(answered)) message = message.slice(answered.length);
  else if (message.startsWith(arrow)) message = message.slice(arrow.length);
  else if (message.startsWith(`${head}: `)) message = message.slice(head.length + 2);
  const outcome = found.status === null ? 'no answer' : String(found.status);
  const scope = found.scope === 'key #1' ? '' : ` [${found.scope}]`;
  return printable(
    `${LABELS[found.party][found.level]} ${head} → ${outcome}: ${message} (${found.citation})${scope}`,
  );
}

/** The findings of one proxy run, in order, with a cap on how many are kept. */
export class FindingLog {
  private readonly kept: ProxyFinding[] = [];
  private count = 0;

  constructor(private readonly onFinding: (found: ProxyFinding) => void = () => undefined) {}

  add(found: Omit<ProxyFinding, 'seq'>): ProxyFinding {
    this.count += 1;
    const numbered: ProxyFinding = { seq: this.count, ...found };
    if (this.kept.length < MAX_KEPT_FINDINGS) this.kept.push(numbered);
    this.onFinding(numbered);
    return numbered;
  }

  /** The kept findings, oldest first. */
  all(): readonly ProxyFinding[] {
    return this.kept;
  }

  /** Findings made in all, kept or not. */
  get total(): number {
    return this.count;
  }
}
