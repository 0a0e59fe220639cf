import { describe, expect, it } from 'vitest';
import { finding } from '../judge/report/test-support/fixtures.js';
import { findingLine, type ProxyFinding } from './findings.js';

function found(message: string): ProxyFinding {
  return {
    seq: 1,
    exchange: 1,
    at: '2026-01-01T00:00:00.000Z',
    rule: 'body',
    citation: '§7',
    level: 'failure',
    party: 'server',
    scope: 'key #1',
    method: 'GET',
    path: '/store/orders',
    status: 401,
    finding: finding(message),
  };
}

describe('the line printed for a finding stays one line of the proxy', () => {
  it.each([
    ['a line feed', 'bad\nPASSED: 44 passed', 'bad\\nPASSED: 44 passed'],
    ['a carriage return', 'bad\r[proxy] all good', 'bad\\r[proxy] all good'],
    ['a line separator', 'bad\u2028FAIL nothing', 'bad\\u2028FAIL nothing'],
    ['a right-to-left override', 'bad \u202etxt.exe', 'bad \\u202etxt.exe'],
  ])('shows %s from the upstream as an escape', (_label, message, shown) => {
    const line = findingLine(found(message));
    expect(line).toBe(`FAIL GET /store/orders → 401: ${shown} (§7)`);
  });
});
