import { describe, expect, it } from 'vitest';
import { defaultContract } from '../contract/index.js';
import { FindingLog } from './findings.js';
import type { CapturedExchange } from './forward.js';
import { TrafficJudge } from './traffic-judge.js';
import { parseUpstream } from './upstream.js';

const upstream = (() => {
  const parsed = parseUpstream('http://127.0.0.1:4010/v1');
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.value;
})();

function list(text: string, contentType = 'application/json'): CapturedExchange {
  const bytes = Buffer.from(text);
  return {
    method: 'GET',
    target: '/v1/store/orders',
    requestHeaders: { authorization: 'Bearer judge-key-0123456789' },
    requestBody: { bytes: Buffer.alloc(0), total: 0, truncated: false },
    response: {
      status: 200,
      headers: { 'content-type': contentType },
      body: { bytes, total: bytes.length, truncated: false },
    },
    fault: null,
    startedAt: 0,
    durationMs: 1,
  };
}

describe('judging traffic', () => {
  it('remembers a clean verdict without hiding a later broken answer', () => {
    const log = new FindingLog();
    const judge = new TrafficJudge({
      contract: defaultContract(),
      upstream,
      log,
      replaceViolations: false,
      judgeClient: true,
    });
    const good = '[{"id":1,"petId":10,"complete":false}]';
    judge.judge(list(good));
    judge.judge(list(good));
    expect(log.total).toBe(0);
    judge.judge(list(good, 'text/plain'));
    judge.judge(list('[{"id":18446744073709551616}]'));
    judge.judge(list('[{"id":18446744073709551616}]'));
    expect(log.all().map((f) => f.rule)).toEqual(['body', 'body', 'state.vanished', 'body']);
  });

  it('replaces only a failure of the server, and only under --errors', () => {
    const judge = (errors: boolean) =>
      new TrafficJudge({
        contract: defaultContract(),
        upstream,
        log: new FindingLog(),
        replaceViolations: errors,
        judgeClient: true,
      });
    expect(judge(true).judge(list('[]', 'text/plain'))?.status).toBe(502);
    expect(judge(false).judge(list('[]', 'text/plain'))).toBeNull();
    expect(judge(true).judge(list('[]'))).toBeNull();
  });
});
