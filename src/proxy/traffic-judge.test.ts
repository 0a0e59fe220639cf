import { brotliCompressSync, constants } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { defaultContract } from '../contract/index.js';
import { FindingLog } from './findings.js';
import type { CapturedExchange } from './forward.js';
import { proxyResult } from './report.js';
import { judgedTarget, TrafficJudge } from './traffic-judge.js';
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
  it('judges every answer afresh: a repeated clean one stays clean, a repeated broken one is found each time', () => {
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
    expect(log.kept.map((f) => f.rule)).toEqual(['body', 'body', 'state.vanished', 'body']);
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

  it('records an exchange whose judging throws as unjudged, with the reason, and judges the next one', () => {
    const log = new FindingLog();
    const contract = defaultContract();
    let throws = true;
    const judge = new TrafficJudge({
      contract: {
        ...contract,
        validateResponseBody(operationId, status, text) {
          if (throws) throw new Error('a rule nobody foresaw');
          return contract.validateResponseBody(operationId, status, text);
        },
      },
      upstream,
      log,
      replaceViolations: true,
      judgeClient: true,
    });
    expect(judge.judge(list('[]'))).toBeNull();
    throws = false;
    expect(judge.judge(list('[]', 'text/plain'))?.status).toBe(502);
    expect(log.kept.map((f) => [f.exchange, f.rule, f.level])).toEqual([
      [1, 'unjudged', 'warning'],
      [2, 'body', 'failure'],
    ]);
    expect(log.kept[0]?.finding.message).toMatch(/could not judge this exchange \(a rule nobody foresaw\)/);
    const report = proxyResult(new Date(0), log, judge, 0);
    expect(report.checks.find((c) => c.id === 'exchange.unjudged')).toMatchObject({ outcome: 'WARN' });
  });
});

function exchange(
  method: string,
  target: string,
  status: number,
  body: string,
  authorization?: string,
): CapturedExchange {
  const bytes = Buffer.from(body);
  return {
    method,
    target,
    requestHeaders: authorization ? { authorization } : {},
    requestBody: { bytes: Buffer.alloc(0), total: 0, truncated: false },
    response: {
      status,
      headers: { 'content-type': 'application/json' },
      body: { bytes, total: bytes.length, truncated: false },
    },
    fault: null,
    startedAt: 0,
    durationMs: 1,
  };
}

describe('the verdict counts every finding', () => {
  it('fails on a 500 that comes after 10,000 junk requests of the client', () => {
    const log = new FindingLog();
    const judge = new TrafficJudge({
      contract: defaultContract(),
      upstream,
      log,
      replaceViolations: false,
      judgeClient: true,
    });
    const notFound = '{"code":"not_found","message":"No such path.","status":404}';
    for (let i = 0; i < 10_000; i += 1) judge.judge(exchange('GET', `/v1/junk/${i}`, 404, notFound));
    judge.judge(
      exchange('GET', '/v1/store/orders', 500, '{"code":"boom","message":"Down.","status":500}', 'Bearer k'),
    );
    const result = proxyResult(new Date(0), log, judge, 0);
    expect(log.total).toBeGreaterThan(10_000);
    expect(result.outcome).toBe('fail');
    expect(result.checks.find((c) => c.id === 'exchange.server-error')?.outcome).toBe('FAIL');
    const undocumented = result.checks.find((c) => c.id === 'client.undocumented');
    expect(undocumented?.message).toMatch(/^10000 finding\(s\)/);
  });
});

describe('judging the path the mock serves', () => {
  it.each([
    ['a dot segment', '/v1/store/./orders', '/v1/store/orders'],
    ['an escaped unreserved letter', '/v1/st%6Fre/orders?x=%6F', '/v1/store/orders?x=%6F'],
    ['the absolute form', 'http://upstream.invalid/v1/store/orders', '/v1/store/orders'],
    ['a backslash', '/v1/store\\orders', '/v1/store/orders'],
    ['an escaped slash, which stays one segment', '/v1/store%2Forders', '/v1/store%2Forders'],
  ])('reads %s as the mock does', (_name, given, want) => {
    expect(judgedTarget(given)).toBe(want);
  });

  it('judges a list read through /./ as the list read, not an undocumented path of the server', () => {
    const log = new FindingLog();
    const judge = new TrafficJudge({
      contract: defaultContract(),
      upstream,
      log,
      replaceViolations: false,
      judgeClient: true,
    });
    judge.judge(exchange('GET', '/v1/store/./orders', 200, '[]', 'Bearer k'));
    judge.judge(exchange('GET', '/v1/st%6Fre/orders', 200, '[]', 'Bearer k'));
    expect(log.kept).toEqual([]);
    expect([...(judge.statuses.get('listOrders') ?? [])]).toEqual([200]);
  });
});

describe('decoding a compressed answer', () => {
  it('stops at the bound: a brotli bomb is left unjudged, not decoded whole', () => {
    const log = new FindingLog();
    const judge = new TrafficJudge({
      contract: defaultContract(),
      upstream,
      log,
      replaceViolations: false,
      judgeClient: true,
      decodedBytes: 64 * 1024,
    });
    // 8 MiB of spaces around a list: valid JSON once decoded, 128 times the bound.
    const bomb = brotliCompressSync(
      Buffer.concat([Buffer.from('['), Buffer.alloc(8 * 1024 * 1024, ' '), Buffer.from(']')]),
      { params: { [constants.BROTLI_PARAM_QUALITY]: 1 } },
    );
    const captured = exchange('GET', '/v1/store/orders', 200, '', 'Bearer k');
    if (!captured.response) throw new Error('unreachable');
    captured.response.headers['content-encoding'] = 'br';
    captured.response.body = { bytes: bomb, total: bomb.length, truncated: false };
    judge.judge(captured);
    expect(judge.unjudgedBodies).toBe(1);
  });
});

describe("a gateway's 503 and 429 (D20, D22)", () => {
  it('are environment notes, never a failure of the server, and replace no answer under --errors', () => {
    const log = new FindingLog();
    const judge = new TrafficJudge({
      contract: defaultContract(),
      upstream,
      log,
      replaceViolations: true,
      judgeClient: true,
    });
    const gatewayPage = (status: number): CapturedExchange => {
      const base = list('<h1>Service Unavailable</h1>', 'text/html');
      return base.response === null ? base : { ...base, response: { ...base.response, status } };
    };
    for (let i = 0; i < 10; i++) expect(judge.judge(gatewayPage(i % 2 === 0 ? 503 : 429))).toBeNull();
    expect(new Set(log.kept.map((f) => `${f.rule} ${f.level}`))).toEqual(new Set(['gateway warning']));
  });
});

describe('a 204 the proxy forwarded is a cancel it has seen (D20)', () => {
  const cancel = (id: string): CapturedExchange => {
    const base = list('');
    return {
      ...base,
      method: 'DELETE',
      target: `/v1/store/orders/${id}`,
      response: { status: 204, headers: {}, body: { bytes: Buffer.alloc(0), total: 0, truncated: false } },
    };
  };
  const orders = (...ids: string[]) =>
    `[${ids.map((id) => `{"id":${id},"petId":10,"quantity":1,"complete":false}`).join(',')}]`;

  it.each([false, true])(
    'an order kept listed after its 204 and dropped later did not leave unseen (sole client: %s)',
    (soleClient) => {
      const log = new FindingLog();
      const judge = new TrafficJudge({
        contract: defaultContract(),
        upstream,
        log,
        replaceViolations: false,
        judgeClient: false,
        soleClient,
      });
      judge.judge(list(orders('1', '3', '9007199254740993')));
      judge.judge(cancel('3'));
      judge.judge(cancel('9007199254740993'));
      judge.judge(list(orders('1', '3', '9007199254740993')));
      judge.judge(list(orders('1')));
      expect(log.kept.map((f) => f.finding.message)).toEqual([]);
      judge.judge(list(orders()));
      expect(log.kept.map((f) => f.rule)).toEqual(['state.vanished']);
    },
  );
});
