import { describe, expect, it } from 'vitest';
import { v2Draft } from '../../test-support/contracts/v2-draft.js';
import { loadContract } from '../contract/compile.js';
import { defaultContract } from '../contract/index.js';
import { createMock } from '../mock/index.js';
import { reportRequest } from './exchange.js';
import type { HttpOutcome } from './http-outcome.js';
import { judgeExchange } from './rules.js';

const KEY = 'judge-test-secret-key-0042';
const JSON_TYPE = { 'content-type': 'application/json' };
const PET_HEADERS = { deprecation: '@1767225600', sunset: 'Wed, 30 Jun 2027 00:00:00 GMT' };

/** An exchange as the proxy would observe it: no check, no plan, just what was sent and what came back. */
function observed(
  method: string,
  path: string,
  outcome: HttpOutcome,
  authorization: string | null = `Bearer ${KEY}`,
) {
  const url = `http://h/v1${path}`;
  const headers: Record<string, string> = authorization === null ? {} : { authorization };
  return { request: reportRequest(method, url, headers, KEY), path, outcome };
}

function answered(status: number, headers: Record<string, string>, text = '') {
  return { ok: true as const, value: { status, headers, text, bytes: text.length } };
}

const error = (status: number, bodyStatus = status) =>
  JSON.stringify({ code: 'some_code', message: 'Something.', status: bodyStatus });

describe('judging one exchange without a run (what the proxy asks)', () => {
  it.each([
    [
      'passes a list with an id above 2^53, read exactly',
      'GET',
      '/store/orders',
      answered(200, JSON_TYPE, '[{"id":9007199254740993,"petId":1,"quantity":1,"complete":false}]'),
      [],
    ],
    [
      'fails a list with an id outside int64',
      'GET',
      '/store/orders',
      answered(200, JSON_TYPE, '[{"id":18446744073709551616,"petId":1,"quantity":1,"complete":false}]'),
      [['body', 'failure', /within int64/]],
    ],
    [
      'fails a list sent as text/plain (D15)',
      'GET',
      '/store/orders',
      answered(200, { 'content-type': 'text/plain' }, '[]'),
      [['body', 'failure', /not application\/json \(D15\)/]],
    ],
    [
      'accepts a charset parameter (D15)',
      'GET',
      '/store/orders',
      answered(200, { 'content-type': 'application/json; charset=utf-8' }, '[]'),
      [],
    ],
    ['passes a 204 cancel without a body', 'DELETE', '/store/orders/3', answered(204, {}), []],
    [
      'fails a 204 cancel with a body',
      'DELETE',
      '/store/orders/3',
      answered(204, JSON_TYPE, '{}'),
      [
        ['body', 'failure', /must have no body/],
        ['headers', 'warning', /204 with Content-Type/],
      ],
    ],
    [
      'fails a 204 cancel framed with a Content-Length other than 0 (D24)',
      'DELETE',
      '/store/orders/3',
      answered(204, { 'content-length': '2' }),
      [['body', 'failure', /with Content-Length: 2: a 204 has no content/]],
    ],
    [
      'warns on a 204 cancel with a Content-Type (D24)',
      'DELETE',
      '/store/orders/3',
      answered(204, JSON_TYPE),
      [['headers', 'warning', /204 with Content-Type: application\/json/]],
    ],
    [
      'fails an Error whose status is not the HTTP status (D5)',
      'DELETE',
      '/store/orders/3',
      answered(404, JSON_TYPE, error(404, 400)),
      [['error-body', 'failure', /says status 400/]],
    ],
    [
      'rates a plain-text 409 as the document says (D3: a warning)',
      'DELETE',
      '/store/orders/2',
      answered(409, { 'content-type': 'text/plain' }, 'shipped'),
      [['error-body', 'warning', /not application\/json/]],
    ],
    [
      'fails a status the operation does not document',
      'DELETE',
      '/store/orders/3',
      answered(418, JSON_TYPE, error(418)),
      [['status', 'failure', /answered 418, expected one of/]],
    ],
    [
      'fails any 5xx',
      'GET',
      '/store/orders',
      answered(503, JSON_TYPE, error(503)),
      [['server-error', 'failure', /answered 503/]],
    ],
    [
      "notes a gateway's 503 without the API's Error as the environment's, not the server's (D20, D22)",
      'GET',
      '/store/orders',
      answered(503, { 'content-type': 'text/html', 'retry-after': '1' }, '<h1>Service Unavailable</h1>'),
      [['gateway', 'warning', /answered 503 without the API's Error body: a gateway/]],
    ],
    [
      "notes a rate limiter's 429 without the API's Error (D20, D22)",
      'DELETE',
      '/store/orders/3',
      answered(429, { 'retry-after': '1' }, 'Too Many Requests'),
      [['gateway', 'warning', /answered 429 without the API's Error body/]],
    ],
    [
      'warns on an unknown path answered 200 (D10)',
      'GET',
      '/nope',
      answered(200, { 'content-type': 'text/html' }, '<p>'),
      [['route', 'warning', /answered 200, expected 404/]],
    ],
    [
      'passes an unknown path answered 404 with any body (D10)',
      'GET',
      '/nope',
      answered(404, { 'content-type': 'text/html' }, '<p>'),
      [],
    ],
    [
      'warns on 405 without Allow (D10)',
      'GET',
      '/store/orders/3',
      answered(405, JSON_TYPE, error(405)),
      [['route', 'warning', /without an Allow header/]],
    ],
    [
      'passes 405 with Allow (D10)',
      'GET',
      '/store/orders/3',
      answered(405, { ...JSON_TYPE, allow: 'DELETE' }, error(405)),
      [],
    ],
    [
      'passes the pet read with valid Deprecation and Sunset (D11)',
      'GET',
      '/pets/10',
      answered(200, { ...JSON_TYPE, ...PET_HEADERS }, '{"id":10,"name":"Rex"}'),
      [],
    ],
    [
      'warns on `Deprecation: true`, an old draft form (D11, RFC 9745)',
      'GET',
      '/pets/10',
      answered(200, { ...JSON_TYPE, ...PET_HEADERS, deprecation: 'true' }, '{"id":10,"name":"Rex"}'),
      [['headers', 'warning', /Deprecation: "true", which must match pattern/]],
    ],
    [
      'warns on a Sunset that is not an HTTP-date (D11, RFC 8594)',
      'GET',
      '/pets/10',
      answered(200, { ...JSON_TYPE, ...PET_HEADERS, sunset: '2027-06-30' }, '{"id":10,"name":"Rex"}'),
      [['headers', 'warning', /Sunset: "2027-06-30"/]],
    ],
    [
      'warns on a Deprecation date later than the Sunset (D11: milliseconds read as seconds)',
      'GET',
      '/pets/10',
      answered(
        200,
        { ...JSON_TYPE, ...PET_HEADERS, deprecation: '@1767225600000' },
        '{"id":10,"name":"Rex"}',
      ),
      [['headers', 'warning', /later than Sunset/]],
    ],
    [
      'warns on a pet read without Sunset (D11)',
      'GET',
      '/pets/10',
      answered(200, { ...JSON_TYPE, deprecation: '@1' }, '{"id":10,"name":"Rex"}'),
      [['headers', 'warning', /without Sunset/]],
    ],
    [
      'fails a redirect (never followed)',
      'GET',
      '/store/orders',
      answered(302, { location: 'http://elsewhere/' }),
      [['status', 'failure', /redirected \(302\)/]],
    ],
    [
      'fails no answer at all',
      'GET',
      '/store/orders',
      { ok: false as const, error: { kind: 'reset' as const, message: 'the connection was reset' } },
      [['status', 'failure', /reset/]],
    ],
    [
      'reads a pet 404 without Deprecation as a read no longer served (D11), judged as D10',
      'GET',
      '/pets/10',
      answered(404, { 'content-type': 'text/html' }, '<h1>Not Found</h1>'),
      [],
    ],
    [
      'holds a pet 404 with Deprecation to the Error contract (§7)',
      'GET',
      '/pets/10',
      answered(404, { 'content-type': 'text/html', ...PET_HEADERS }, '<h1>Not Found</h1>'),
      [['error-body', 'failure', /not application\/json/]],
    ],
    [
      'passes a malformed id refused with 400 or 422 (D9)',
      'DELETE',
      '/store/orders/1.5',
      answered(422, JSON_TYPE, error(422)),
      [],
    ],
    [
      'fails a malformed id that is not refused with 4xx (D9: `12abc` read as 12)',
      'DELETE',
      '/store/orders/12abc',
      answered(204, {}),
      [['status', 'failure', /answered 204, expected 4xx/]],
    ],
    [
      'warns on a malformed id read as the same integer in another notation (D9: `0x7` as 7)',
      'DELETE',
      '/store/orders/0x7',
      answered(204, {}),
      [['status', 'warning', /answered 204, expected 4xx/]],
    ],
    [
      'passes an undeclared query parameter refused with 400 and a validator body (D21)',
      'GET',
      '/store/orders?a=x',
      answered(400, JSON_TYPE, '{"message":"Unknown query parameter \'a\'"}'),
      [],
    ],
    [
      'passes a retired deprecated read answering 410 Gone with any body (D11)',
      'GET',
      '/pets/10',
      answered(410, { 'content-type': 'text/html' }, '<h1>Gone</h1>'),
      [],
    ],
    [
      "warns on a deprecated read's 404 that announces its deprecation without a Sunset (D11)",
      'GET',
      '/pets/10',
      answered(404, { ...JSON_TYPE, deprecation: PET_HEADERS.deprecation }, error(404)),
      [['headers', 'warning', /answered 404 without Sunset/]],
    ],
    [
      "passes a deprecated read's 404 with both D11 headers",
      'GET',
      '/pets/10',
      answered(404, { ...JSON_TYPE, ...PET_HEADERS }, error(404)),
      [],
    ],
    [
      'warns on a malformed id refused without an Error body (D9)',
      'DELETE',
      '/store/orders/abc',
      answered(400, { 'content-type': 'text/plain' }, 'bad id'),
      [['error-body', 'warning', /not application\/json/]],
    ],
  ] as const)('%s', (_label, method, path, outcome, want) => {
    const found = judgeExchange(defaultContract(), observed(method, path, outcome), KEY);
    expect(found.map((f) => [f.rule, f.level])).toEqual(want.map(([rule, level]) => [rule, level]));
    found.forEach((f, i) => {
      expect(f.finding.message).toMatch(want[i]?.[2] as RegExp);
      expect(JSON.stringify(f.finding)).not.toContain(KEY);
    });
  });

  it.each([
    ['no Authorization header', null],
    ['an empty Bearer token', 'Bearer '],
    ['the key under Basic', `Basic ${KEY}`],
    ['the bare key', KEY],
  ] as const)(
    'fails a documented operation answered 200 to %s, and passes its 401 (§5, D6, D7)',
    (_l, auth) => {
      const list = '[{"id":1,"petId":1,"quantity":1,"complete":false}]';
      const accepted = judgeExchange(
        defaultContract(),
        observed('GET', '/store/orders', answered(200, JSON_TYPE, list), auth),
        KEY,
      );
      expect(accepted.map((f) => [f.rule, f.level])).toEqual([['auth', 'failure']]);
      expect(JSON.stringify(accepted)).not.toContain(KEY);
      const malformed = observed('DELETE', '/store/orders/abc', answered(401, JSON_TYPE, error(401)), auth);
      expect(judgeExchange(defaultContract(), malformed, KEY)).toEqual([]);
      const before = observed('DELETE', '/store/orders/abc', answered(404, JSON_TYPE, error(404)), auth);
      expect(judgeExchange(defaultContract(), before, KEY).map((f) => f.rule)).toEqual(['auth']);
    },
  );
});

describe('a declared query parameter that breaks its schema (the v2 draft: limit 1..100, D21)', () => {
  const loaded = loadContract(v2Draft());
  if (!loaded.ok) throw new Error(loaded.error);
  const draft = loaded.value;
  const list = '[{"id":1,"petId":1,"quantity":1,"complete":false}]';
  const counted = { ...JSON_TYPE, 'x-total-count': '1' };

  it("passes the mock's own 400 on ?limit=0, as the proxy and the suite judge it", async () => {
    const mock = await createMock({ contract: draft, apiKeys: [KEY] });
    const response = await mock.handle(
      new Request('http://h/v2/store/orders?limit=0', { headers: { authorization: `Bearer ${KEY}` } }),
    );
    const text = await response.text();
    expect(response.status).toBe(400);
    const outcome = answered(response.status, Object.fromEntries(response.headers), text);
    expect(judgeExchange(draft, observed('GET', '/store/orders?limit=0', outcome), KEY)).toEqual([]);
  });

  it('passes any other 4xx, and fails a 5xx', () => {
    const refused = observed(
      'GET',
      '/store/orders?limit=101',
      answered(422, { 'content-type': 'text/html' }, '<p>no</p>'),
    );
    expect(judgeExchange(draft, refused, KEY)).toEqual([]);
    const crashed = observed('GET', '/store/orders?limit=0', answered(500, {}, ''));
    expect(judgeExchange(draft, crashed, KEY).map((f) => [f.rule, f.level])).toEqual([
      ['server-error', 'failure'],
    ]);
  });

  it('warns on a 200 to ?limit=0: the invalid value was accepted', () => {
    const accepted = observed('GET', '/store/orders?limit=0', answered(200, counted, list));
    const found = judgeExchange(draft, accepted, KEY);
    expect(found.map((f) => [f.rule, f.level, f.citation])).toEqual([['status', 'warning', 'D21']]);
    expect(found[0]?.finding.message).toBe('GET /store/orders?limit=0 accepted the invalid `limit` with 200');
  });

  it('still fails an undocumented 4xx to a valid limit', () => {
    const refused = observed('GET', '/store/orders?limit=5', answered(400, JSON_TYPE, error(400)));
    expect(judgeExchange(draft, refused, KEY).map((f) => [f.rule, f.level])).toEqual([['status', 'failure']]);
  });
});
