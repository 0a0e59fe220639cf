/** One finding as text, the same in the pretty report, the JUnit details and a vitest failure message. */
import type { CheckResult, Finding } from '../types.js';

/** Controls (a line break could forge a `PASSED:` line, ESC drives the terminal), U+2028/9 and bidi controls. */
const UNPRINTABLE = /[\p{Cc}\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/gu;

/** The characters HTML and XML text escape (the HTML and JUnit reports). */
export const MARKUP = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

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

/** A finding's fields in the order every report shows them; the text and HTML reports each render them. */
export function findingFields(f: Finding): Array<[label: string, lines: string[]]> {
  const fields: Array<[string, string[]]> = [['finding', [f.message]]];
  const auth = f.request?.headers.authorization ?? '(none)';
  if (f.request) fields.push(['request', [`${f.request.method} ${f.request.url}`, `Authorization: ${auth}`]]);
  fields.push(['expected', [f.expected]]);
  const { status, contentType: type, transportError: why } = f.actual ?? {};
  const actual = `${status}${type ? ` ${type}` : ''}${why ? ` (${why})` : ''}`;
  if (f.actual) fields.push(['actual', [status === null ? `no response: ${why ?? 'unknown'}` : actual]]);
  if (f.actual?.bodyExcerpt) fields.push(['body', [f.actual.bodyExcerpt]]);
  const rules = f.schemaViolations.map(
    (v) => `${v.path || '(body)'} ${v.message}${v.schemaPath ? ` [${v.schemaPath}]` : ''}`,
  );
  if (rules.length > 0) fields.push(['rules', rules]);
  if (f.request) fields.push(['repeat', [f.request.curl]]);
  return fields;
}

/** `full`: every body character and rule; else 300 characters and 5 rules, for a terminal. */
export function findingLines(f: Finding, indent: string, full = false): string[] {
  const [bodyChars, rules] = full ? [Infinity, Infinity] : [300, 5];
  return findingFields(f).flatMap(([label, lines]) => {
    if (label === 'finding') return lines.map((line) => `${indent}${printable(line)}`);
    const shown = label === 'body' ? lines.map((l) => l.slice(0, bodyChars)) : lines.slice(0, rules);
    const head = (i: number) => (label === 'rules' ? 'rule:' : i === 0 ? `${label}:` : '');
    const out = shown.map((line, i) => `${indent}${head(i).padEnd(10)}${printable(line)}`);
    if (lines.length > shown.length)
      out.push(`${indent}          … ${lines.length - shown.length} more rule(s)`);
    return out;
  });
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
