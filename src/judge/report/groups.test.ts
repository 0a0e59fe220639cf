import { describe, expect, it } from 'vitest';
import { causeOf, groupByCause } from './finding.js';
import { renderJunit } from './junit.js';
import { renderPretty } from './pretty.js';
import { check, finding, resultOf } from './test-support/fixtures.js';

const noStatus = (path: string) =>
  finding(`GET ${path} → 401: the body is not a valid Error: body must have required property 'status'`);
const checks = [
  check('auth.listOrders.no-header', 'FAIL', [noStatus('/store/orders')]),
  check('auth.cancelOrder.no-header', 'FAIL', [noStatus('/store/orders/424242424')]),
  check('auth.getPet.no-header', 'FAIL', [noStatus('/pets/10')]),
  check('list.orders', 'FAIL', [
    finding('GET /store/orders → 200: the list is not valid: /0/id must be integer', 200),
  ]),
  check('errors.contract', 'FAIL', [noStatus('/store/orders'), noStatus('/pets/10')]),
  check('pets.deprecation', 'WARN', [finding('GET /pets/10 → 200: no Deprecation header (D11)', 200)]),
  check('routes.unknown', 'PASS'),
];

describe('findings that share a cause are one group', () => {
  it.each([
    ['a status and a path', 'GET /store/orders/7 → 401: the body is wrong', 'the body is wrong'],
    [
      'a full URL and a transport error',
      'GET http://h/v1/store/orders: time-out after 10 s',
      'time-out after 10 s',
    ],
    ['an answered status', 'DELETE /store/orders/7 answered 500, expected 404', 'answered 500, expected 404'],
    ['no request at all', 'internal error in the check', 'internal error in the check'],
  ])('reads the cause of a message with %s', (_label, message, cause) => {
    expect(causeOf(message)).toBe(cause);
  });

  it('groups one bug seen by several checks, and keeps other causes apart', () => {
    const groups = groupByCause(checks, 'FAIL');
    expect(groups.map((g) => [g.cause, g.status, g.checks.map((c) => c.id), g.findings.length])).toEqual([
      [
        "the body is not a valid Error: body must have required property 'status'",
        401,
        [
          'auth.listOrders.no-header',
          'auth.cancelOrder.no-header',
          'auth.getPet.no-header',
          'errors.contract',
        ],
        5,
      ],
      ['the list is not valid: /0/id must be integer', 200, ['list.orders'], 1],
    ]);
    expect(groupByCause(checks, 'WARN').map((g) => g.checks.map((c) => c.id))).toEqual([
      ['pets.deprecation'],
    ]);
  });

  it('shows the cause once in the pretty report, naming every check it broke', () => {
    const text = renderPretty(resultOf(checks), { color: false });
    expect(text).toContain(
      "1) FAIL in 4 checks, one cause (401): the body is not a valid Error: body must have required property 'status'",
    );
    expect(text).toContain(
      '   checks: auth.listOrders.no-header, auth.cancelOrder.no-header, auth.getPet.no-header, errors.contract',
    );
    // Below the check lines: once as the cause, once in the example finding, not once per check.
    const details = text.slice(text.indexOf('Failures:'));
    expect(details.match(/must have required property 'status'/g)).toHaveLength(2);
    expect(text).toContain('2) FAIL list.orders: the title of list.orders (§5, D7)');
    expect(text).toContain('3) WARN pets.deprecation');
    // Every check keeps its own line and verdict.
    for (const c of checks)
      expect(text).toMatch(new RegExp(`^${c.outcome} +${c.id.replace(/\./g, '\\.')} `, 'm'));
  });

  it('keeps every check its own verdict and findings in JUnit', () => {
    const xml = renderJunit(resultOf(checks));
    expect(xml.match(/<failure /g)).toHaveLength(5);
    expect(
      xml.match(/must have required property &apos;status&apos;|must have required property 'status'/g)
        ?.length,
    ).toBeGreaterThanOrEqual(5);
  });
});
