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

/** Target-controlled text can carry escape sequences; a report must not let it drive the terminal. */
export function printable(text: string): string {
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    const control = (code < 0x20 && code !== 0x09 && code !== 0x0a) || (code >= 0x7f && code <= 0x9f);
    out += control ? '\uFFFD' : ch;
  }
  return out;
}

/**
 * The lines of one finding, each starting with `indent`.
 *
 * @example findingLines(finding, '   ').join('\n')
 */
export function findingLines(f: Finding, indent: string, limits: FindingLimits = SHORT_FINDING): string[] {
  const lines = [`${indent}${printable(f.message)}`];
  if (f.request) {
    lines.push(`${indent}request:  ${f.request.method} ${printable(f.request.url)}`);
    const auth = f.request.headers.authorization;
    lines.push(`${indent}          Authorization: ${auth === undefined ? '(none)' : printable(auth)}`);
  }
  lines.push(`${indent}expected: ${f.expected}`);
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
      `${indent}rule:     ${v.path || '(body)'} ${v.message}${v.schemaPath ? ` [${v.schemaPath}]` : ''}`,
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
