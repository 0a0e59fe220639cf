import { describe, expect, it } from 'vitest';
import { failureMessage } from '../../conformance/vitest/describe-conformance.js';
import type { CheckResult, ConformanceResult, Finding } from '../types.js';
import { findingLines } from './finding.js';
import { renderHtml } from './html.js';
import { renderJunit } from './junit.js';
import { renderPretty } from './pretty.js';
import { check as fixtureCheck, resultOf } from './test-support/fixtures.js';

const answered: Finding = {
  message: 'refused without an Error body',
  expected: '401 with an Error body',
  request: {
    method: 'GET',
    url: 'http://h/v1/store/orders',
    headers: { authorization: 'Bearer <redacted>' },
    curl: `curl -i -X GET -H "authorization: Bearer $PETSTORE_API_KEY" 'http://h/v1/store/orders'`,
  },
  actual: {
    status: 401,
    contentType: 'application/problem+json',
    bodyExcerpt: `{"detail":"${'d'.repeat(400)}"}`,
    transportError: null,
  },
  schemaViolations: Array.from({ length: 7 }, (_, i) => ({
    path: `/field${i}`,
    schemaPath: `https://petstore.contract/components/schemas/Error/properties/field${i}`,
    message: `rule ${i} broken`,
  })) as Finding['schemaViolations'],
};

const unanswered: Finding = {
  message: 'no usable answer',
  expected: '200',
  request: { method: 'DELETE', url: 'http://h/v1/store/orders/1', headers: {}, curl: 'curl -i -X DELETE x' },
  actual: {
    status: null,
    contentType: null,
    bodyExcerpt: '',
    transportError: 'no complete response (time-out)',
  },
  schemaViolations: [],
};

function resultWith(finding: Finding): { result: ConformanceResult; check: CheckResult } {
  const check: CheckResult = {
    ...fixtureCheck('auth.listOrders.no-header', 'FAIL', [finding]),
    title: 'a title',
    citation: '§5',
    message: 'broken',
  };
  return { result: resultOf([check]), check };
}

const unxml = (text: string) =>
  text
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

const RENDERERS: [string, (finding: Finding) => string, string, boolean][] = [
  ['pretty', (f) => renderPretty(resultWith(f).result, { color: false }), '   ', false],
  ['junit', (f) => unxml(renderJunit(resultWith(f).result)), '', true],
  ['vitest', (f) => failureMessage(resultWith(f).check), '  ', false],
];

describe('a finding is rendered by one function in every report', () => {
  it.each(RENDERERS)('%s shows the shared rendering', (_name, render, indent, limits) => {
    for (const finding of [answered, unanswered]) {
      expect(render(finding)).toContain(findingLines(finding, indent, limits).join('\n'));
    }
  });

  it.each(RENDERERS)(
    '%s shows the Authorization sent, the content type and the schema paths',
    (_name, render) => {
      const text = render(answered);
      expect(text).toContain('Authorization: Bearer <redacted>');
      expect(text).toMatch(/actual: +401 application\/problem\+json/);
      expect(text).toContain('[https://petstore.contract/components/schemas/Error/properties/field0]');
      expect(text).toMatch(/repeat: +curl -i -X GET/);
      expect(render(unanswered)).toMatch(/actual: +no response: no complete response \(time-out\)/);
    },
  );

  it('keeps the whole body and every rule in JUnit, and cuts them for a terminal', () => {
    const junit = unxml(renderJunit(resultWith(answered).result));
    expect(junit).toContain(answered.actual?.bodyExcerpt);
    expect(junit).toContain('rule 6 broken');
    const pretty = renderPretty(resultWith(answered).result, { color: false });
    expect(pretty).not.toContain('rule 5 broken');
    expect(pretty).toContain('… 2 more rule(s)');
  });
});

describe('every report shows bidi and control characters from a target as escapes', () => {
  // U+202E would show `txt.exe` as `exe.txt`; U+2066 to U+2069 isolate and reorder; ESC drives a terminal.
  const controls = '\u202e\u2066\u2069\u200f\u061c\u001b[2J\u0007';
  const shown = '\\u202e\\u2066\\u2069\\u200f\\u061c\\u001b[2J\\u0007';
  const hostile: Finding = {
    ...answered,
    message: `refused ${controls}`,
    actual: answered.actual && { ...answered.actual, bodyExcerpt: `{"m":"${controls}"}` },
  };
  const renderers: [string, (finding: Finding) => string][] = [
    ...RENDERERS.map(([name, render]) => [name, render] as [string, (finding: Finding) => string]),
    ['html', (f) => renderHtml(resultWith(f).result)],
  ];
  it.each(renderers)('%s', (_name, render) => {
    const text = render(hostile);
    for (const control of controls.replace('[2J', '')) expect(text).not.toContain(control);
    expect(unxml(text)).toContain(`{"m":"${shown}"}`);
  });
});
