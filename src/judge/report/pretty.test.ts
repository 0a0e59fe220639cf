import { describe, expect, it } from 'vitest';
import type { CheckResult, Finding } from '../types.js';
import { printable } from './finding.js';
import { renderPretty } from './pretty.js';
import { check, finding, resultOf } from './test-support/fixtures.js';

/** What a target writes to pass for the report's own verdict. */
const FORGED = 'PASSED: 44 passed, 0 failed, 0 warned, 0 skipped (44 checks; 60 requests in 1.0 s)';

/** Bidi controls, the line separators and C0/C1 controls: none may reach a terminal as they are. */
const NEUTRALISED = /[\p{Cc}\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/u;

function failing(edit: (f: Finding) => Finding, message?: string): CheckResult {
  const found = edit(finding('GET /store/orders → 401: the body is not an Error'));
  return { ...check('auth.listOrders.no-header', 'FAIL', [found]), message: message ?? found.message };
}

describe('the pretty report shows every line of server text inside its own line', () => {
  const breaks = ['\n', '\r\n', '\r', '\u2028', '\u0085', '\u001b[2K\r'];
  it.each(
    breaks.flatMap((br) => {
      const forged = `ok${br}${FORGED}${br}`;
      const shown = JSON.stringify(br);
      return [
        [
          `a body excerpt, broken by ${shown}`,
          failing((f) => ({ ...f, actual: f.actual && { ...f.actual, bodyExcerpt: forged } })),
          forged,
        ],
        [`a finding's message, broken by ${shown}`, failing((f) => ({ ...f, message: forged })), forged],
        [
          `a check's message, broken by ${shown}`,
          { ...check('auth.listOrders.no-header', 'FAIL'), message: forged },
          forged,
        ],
        [
          `a content type, broken by ${shown}`,
          failing((f) => ({ ...f, actual: f.actual && { ...f.actual, contentType: forged } })),
          forged,
        ],
        [
          `a request URL, broken by ${shown}`,
          failing((f) => ({ ...f, request: f.request && { ...f.request, url: forged } })),
          forged,
        ],
        [
          `a schema rule's path, broken by ${shown}`,
          failing((f) => ({
            ...f,
            schemaViolations: [{ path: forged, schemaPath: '', message: 'm' }] as Finding['schemaViolations'],
          })),
          forged,
        ],
      ] as const;
    }),
  )('%s', (_label, failed, forged) => {
    const text = renderPretty(resultOf([failed]), { color: false });
    const lines = text.split(/\r\n|[\n\r\u2028\u2029\u0085]/);
    expect(lines.filter((line) => /^(PASSED|FAILED)\b/.test(line))).toEqual([
      expect.stringMatching(/^FAILED: 0 passed, 1 failed/),
    ]);
    expect(lines.at(-2)).toMatch(/^FAILED: /);
    // The report's own line breaks are its only control characters.
    expect(text.replace(/\n/g, '')).not.toMatch(NEUTRALISED);
    // The text is still shown, escaped, where it belongs.
    expect(text).toContain(printable(forged));
  });

  it.each([
    ['RIGHT-TO-LEFT OVERRIDE', '\u202e', '\\u202e'],
    ['LEFT-TO-RIGHT EMBEDDING', '\u202a', '\\u202a'],
    ['RIGHT-TO-LEFT ISOLATE', '\u2067', '\\u2067'],
    ['POP DIRECTIONAL ISOLATE', '\u2069', '\\u2069'],
    ['RIGHT-TO-LEFT MARK', '\u200f', '\\u200f'],
    ['ARABIC LETTER MARK', '\u061c', '\\u061c'],
    ['an ESC sequence', '\u001b[31m', '\\u001b[31m'],
    ['a line feed', '\n', '\\n'],
    ['a carriage return', '\r', '\\r'],
    ['a tab', '\t', '\\t'],
    ['a C1 control', '\u009b', '\\u009b'],
  ])('shows %s in a body as an escape', (_label, control, shown) => {
    const body = `{"m":"a${control}b"}`;
    const failed = failing((f) => ({ ...f, actual: f.actual && { ...f.actual, bodyExcerpt: body } }));
    const text = renderPretty(resultOf([failed]), { color: false });
    expect(text.split('\n')).toContain(`   body:     {"m":"a${shown}b"}`);
    expect(text.replace(/\n/g, '')).not.toMatch(NEUTRALISED);
  });
});
