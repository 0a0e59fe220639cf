/** One finding as text, the same in the pretty report, the JUnit details and a vitest failure message. */
import type { CheckResult, Finding } from '../types.js';

/** Controls (a line break could forge a `PASSED:` line, ESC drives the terminal), U+2028/9 and bidi controls. */
const UNPRINTABLE = /[\p{Cc}\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/gu;

const SHORT_ESCAPES: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };
function escaped(ch: string): string {
  return SHORT_ESCAPES[ch] ?? `\\u${(ch.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`;
}

/** Target-controlled text as one line, each character of {@link UNPRINTABLE} written as an escape. */
export function printable(text: string): string {
  return text.replace(UNPRINTABLE, escaped);
}

/** Like {@link printable}, line breaks and tabs kept: in HTML and XML a line break cannot forge a verdict. */
export function printableLines(text: string): string {
  return text.replace(UNPRINTABLE, (ch) => (ch === '\n' || ch === '\t' ? ch : escaped(ch)));
}

/** `full`: every body character and rule; else 300 characters and 5 rules, for a terminal. */
export function findingLines(f: Finding, indent: string, full = false): string[] {
  const [bodyChars, rules] = full ? [Infinity, Infinity] : [300, 5];
  const lines = [`${indent}${printable(f.message)}`];
  if (f.request) {
    lines.push(`${indent}request:  ${printable(`${f.request.method} ${f.request.url}`)}`);
    const auth = f.request.headers.authorization;
    lines.push(`${indent}          Authorization: ${auth === undefined ? '(none)' : printable(auth)}`);
  }
  lines.push(`${indent}expected: ${printable(f.expected)}`);
  if (f.actual) {
    lines.push(`${indent}actual:   ${printable(actualText(f.actual))}`);
    if (f.actual.bodyExcerpt !== '')
      lines.push(`${indent}body:     ${printable(f.actual.bodyExcerpt.slice(0, bodyChars))}`);
  }
  for (const v of f.schemaViolations.slice(0, rules)) {
    lines.push(
      `${indent}rule:     ${printable(`${v.path || '(body)'} ${v.message}${v.schemaPath ? ` [${v.schemaPath}]` : ''}`)}`,
    );
  }
  if (f.schemaViolations.length > rules)
    lines.push(`${indent}          … ${f.schemaViolations.length - rules} more rule(s)`);
  if (f.request) lines.push(`${indent}repeat:   ${printable(f.request.curl)}`);
  return lines;
}

/** What came back: `409 application/json`, or why nothing did. */
export function actualText(a: NonNullable<Finding['actual']>): string {
  if (a.status === null) return `no response: ${a.transportError ?? 'unknown'}`;
  return `${a.status}${a.contentType ? ` ${a.contentType}` : ''}${a.transportError ? ` (${a.transportError})` : ''}`;
}

export function findingsText(findings: readonly Finding[], indent: string, full = false): string {
  return findings.map((f) => findingLines(f, indent, full).join('\n')).join('\n\n');
}

/** One finding per cause for the pretty and HTML reports: one bug often fails many checks (a 401 body without `status`). */
export interface CauseGroup {
  outcome: 'FAIL' | 'WARN';
  /** The message without the request it was seen on. */
  cause: string;
  /** `null` when no response arrived or the checks gave only a message. */
  status: number | null;
  checks: CheckResult[];
  findings: Finding[];
}

/** Without the request it was seen on (`GET /orders → 401: `), so one fault on two requests reads the same. */
export function causeOf(message: string): string {
  return message.replace(/^[A-Z]{3,7} \S+?(?: → \d{3})?:? /, '');
}

/** In order of first appearance. */
export function groupByCause(checks: readonly CheckResult[], outcome: 'FAIL' | 'WARN'): CauseGroup[] {
  const groups = new Map<string, CauseGroup>();
  const add = (check: CheckResult, cause: string, status: number | null, finding: Finding | null) => {
    const key = `${status ?? '-'} ${cause}`;
    const group = groups.get(key) ?? { outcome, cause, status, checks: [], findings: [] };
    groups.set(key, group);
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
