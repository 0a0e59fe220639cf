/**
 * One finding as text, the same in every report: the pretty report, the JUnit details and the vitest
 * failure message all show what was sent, what was expected, what came back, the broken schema rules and a
 * curl line to repeat the request.
 */
import type { Finding } from '../types.js';

/** How much of a finding a report shows; the JUnit file keeps everything. */
export interface FindingLimits {
  /** Characters of the (already redacted) body excerpt. */
  bodyChars: number;
  /** Schema rules listed before "… N more rule(s)". */
  rules: number;
}

/** For a terminal: the start of the body and the first five rules (the json report has the rest). */
export const SHORT_FINDING: FindingLimits = { bodyChars: 300, rules: 5 };
/** Everything the result holds. */
export const FULL_FINDING: FindingLimits = {
  bodyChars: Number.POSITIVE_INFINITY,
  rules: Number.POSITIVE_INFINITY,
};

/**
 * What a target's text must not bring into a report as it is: C0 and C1 controls and DEL (a line break
 * lets a body write a line of its own at column 0, such as a fake `PASSED:` verdict; ESC drives the
 * terminal), the line and paragraph separators U+2028/U+2029, and the bidi controls that reorder what is
 * shown (U+061C, U+200E/F, U+202A–U+202E, U+2066–U+2069), which can make text read as something else.
 */
const UNPRINTABLE = /[\p{Cc}\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/gu;
/** The same, but line breaks and tabs kept: for HTML and XML, where a line break cannot forge a verdict. */
const UNPRINTABLE_BUT_LINES = /(?![\n\t])[\p{Cc}\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/gu;

const SHORT_ESCAPES: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escaped(ch: string): string {
  return SHORT_ESCAPES[ch] ?? `\\u${(ch.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`;
}

/**
 * Target-controlled text as one line that shows what it holds: every character of {@link UNPRINTABLE}
 * written as an escape (`\n`, `\u202e`), so it can neither start a line nor drive or reorder the terminal.
 *
 * @example printable('ok\nPASSED: 44 passed') // 'ok\\nPASSED: 44 passed'
 */
export function printable(text: string): string {
  return text.replace(UNPRINTABLE, escaped);
}

/**
 * Like {@link printable}, but line breaks and tabs are kept: for a report whose structure is markup
 * (HTML, JUnit XML), where a body's own lines are easier to read and cannot pass for the report's.
 */
export function printableLines(text: string): string {
  return text.replace(UNPRINTABLE_BUT_LINES, escaped);
}

/**
 * The lines of one finding, each starting with `indent`.
 *
 * @example findingLines(finding, '   ').join('\n')
 */
export function findingLines(f: Finding, indent: string, limits: FindingLimits = SHORT_FINDING): string[] {
  const lines = [`${indent}${printable(f.message)}`];
  if (f.request) {
    lines.push(`${indent}request:  ${printable(`${f.request.method} ${f.request.url}`)}`);
    const auth = f.request.headers.authorization;
    lines.push(`${indent}          Authorization: ${auth === undefined ? '(none)' : printable(auth)}`);
  }
  lines.push(`${indent}expected: ${printable(f.expected)}`);
  if (f.actual) {
    const actual =
      f.actual.status === null
        ? `no response: ${f.actual.transportError ?? 'unknown'}`
        : `${f.actual.status}${f.actual.contentType ? ` ${f.actual.contentType}` : ''}${f.actual.transportError ? ` (${f.actual.transportError})` : ''}`;
    lines.push(`${indent}actual:   ${printable(actual)}`);
    if (f.actual.bodyExcerpt !== '')
      lines.push(`${indent}body:     ${printable(f.actual.bodyExcerpt.slice(0, limits.bodyChars))}`);
  }
  for (const v of f.schemaViolations.slice(0, limits.rules)) {
    lines.push(
      `${indent}rule:     ${printable(`${v.path || '(body)'} ${v.message}${v.schemaPath ? ` [${v.schemaPath}]` : ''}`)}`,
    );
  }
  if (f.schemaViolations.length > limits.rules)
    lines.push(`${indent}          … ${f.schemaViolations.length - limits.rules} more rule(s)`);
  if (f.request) lines.push(`${indent}repeat:   ${printable(f.request.curl)}`);
  return lines;
}

/** Several findings, a blank line between them. */
export function findingsText(findings: readonly Finding[], indent: string, limits?: FindingLimits): string {
  return findings.map((f) => findingLines(f, indent, limits).join('\n')).join('\n\n');
}
