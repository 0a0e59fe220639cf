import { describe, expect, it } from 'vitest';
import { v2Draft } from '../../test-support/contracts/v2-draft.js';
import { defaultContract } from '../contract/index.js';
import { compileCors, isOrigin, parseCorsOrigin } from './cors.js';

const contract = defaultContract();
const cors = compileCors(contract.document);

describe('the CORS headers of every answer (D14)', () => {
  const cases = [
    {
      name: 'reflects a page origin with credentials allowed',
      origin: 'http://localhost:5173',
      want: {
        'access-control-allow-origin': 'http://localhost:5173',
        'access-control-allow-credentials': 'true',
      },
    },
    {
      name: 'reflects an IPv6 origin with a port',
      origin: 'http://[::1]:3000',
      want: {
        'access-control-allow-origin': 'http://[::1]:3000',
        'access-control-allow-credentials': 'true',
      },
    },
    {
      name: 'reflects a 127.0.0.0/8 origin over https',
      origin: 'https://127.1.2.3:8443',
      want: {
        'access-control-allow-origin': 'https://127.1.2.3:8443',
        'access-control-allow-credentials': 'true',
      },
    },
    {
      name: 'reflects localhost without a port',
      origin: 'http://localhost',
      want: { 'access-control-allow-origin': 'http://localhost', 'access-control-allow-credentials': 'true' },
    },
    {
      name: 'grants nothing to a page on the web',
      origin: 'https://evil.example',
      want: { 'access-control-allow-origin': undefined, 'access-control-allow-credentials': undefined },
    },
    {
      name: 'grants nothing to a name that only resolves to loopback (DNS rebinding)',
      origin: 'http://localhost.evil.example:4010',
      want: { 'access-control-allow-origin': undefined, 'access-control-allow-credentials': undefined },
    },
    {
      name: 'grants nothing to an address outside 127.0.0.0/8',
      origin: 'http://127.0.0.256',
      want: { 'access-control-allow-origin': undefined, 'access-control-allow-credentials': undefined },
    },
    {
      name: 'grants nothing to the opaque origin of a file: page or a sandboxed frame',
      origin: 'null',
      want: { 'access-control-allow-origin': undefined, 'access-control-allow-credentials': undefined },
    },
    {
      name: 'grants nothing to a local page of another scheme',
      origin: 'ftp://localhost',
      want: { 'access-control-allow-origin': undefined, 'access-control-allow-credentials': undefined },
    },
    {
      name: 'answers * without credentials when there is no Origin',
      origin: undefined,
      want: { 'access-control-allow-origin': '*', 'access-control-allow-credentials': undefined },
    },
    {
      name: 'never echoes an origin with a path',
      origin: 'http://localhost/x',
      want: { 'access-control-allow-origin': undefined, 'access-control-allow-credentials': undefined },
    },
    {
      name: 'never echoes an origin with spaces or control characters',
      origin: 'http://localhost\r\nset-cookie: x',
      want: { 'access-control-allow-origin': undefined, 'access-control-allow-credentials': undefined },
    },
    {
      name: 'never echoes an overlong origin',
      origin: `http://${'a'.repeat(300)}.localhost`,
      want: { 'access-control-allow-origin': undefined, 'access-control-allow-credentials': undefined },
    },
  ];
  it.each(cases)('$name', ({ origin, want }) => {
    const headers = cors.headers(origin);
    expect(headers['access-control-allow-origin']).toBe(want['access-control-allow-origin']);
    expect(headers['access-control-allow-credentials']).toBe(want['access-control-allow-credentials']);
    // Whatever the origin, a cache must not hand one origin's answer to another.
    expect(headers.vary).toBe('Origin');
  });

  it('exposes the headers a page needs, as the document lists them', () => {
    const exposed = cors.headers('http://localhost:3000')['access-control-expose-headers']?.split(', ');
    expect(exposed).toEqual(
      expect.arrayContaining(['Allow', 'Deprecation', 'Sunset', 'Preference-Applied', 'X-Mock-Fault']),
    );
  });

  it("exposes a draft's documented response header that the extension does not list (D14)", () => {
    const exposed = compileCors(v2Draft()).headers('http://localhost:5173')['access-control-expose-headers'];
    expect(exposed?.split(', ')).toContain('X-Total-Count');
  });

  it('reads the exposed headers from the document, not from code', () => {
    const extension = contract.document['x-petstore-cors'] as Record<string, unknown>;
    const altered = { ...contract.document, 'x-petstore-cors': { ...extension, exposeHeaders: ['X-Only'] } };
    // Beside the listed names, the headers the document declares on a response (getPet's D11 pair).
    expect(compileCors(altered).headers('http://[::1]:3000')['access-control-expose-headers']).toBe(
      'X-Only, Deprecation, Sunset',
    );
    expect(() => compileCors({ ...contract.document, 'x-petstore-cors': {} })).toThrow(/exposeHeaders/);
  });

  it.each([
    { given: 'https://app.example.com', want: true },
    { given: 'http://127.0.0.1:8080', want: true },
    { given: 'chrome-extension://abcdef', want: true },
    { given: '*', want: false },
    { given: 'http://', want: false },
    { given: 'app.example.com', want: false },
    { given: 'http://a.test:99999999', want: false },
  ])('isOrigin("$given") is $want', ({ given, want }) => {
    expect(isOrigin(given)).toBe(want);
  });
});

describe('the origins named with --cors-origin (D14)', () => {
  const cases = [
    { name: 'allows a named origin', named: ['https://app.test'], origin: 'https://app.test', want: true },
    {
      name: 'allows a named origin whatever the case it was named in',
      named: ['https://App.Test:8443'],
      origin: 'https://app.test:8443',
      want: true,
    },
    {
      name: 'keeps the local origins',
      named: ['https://app.test'],
      origin: 'http://localhost:1',
      want: true,
    },
    {
      name: 'a named origin is exact: another port is another origin',
      named: ['https://app.test'],
      origin: 'https://app.test:444',
      want: false,
    },
    { name: '`null` when named', named: ['null'], origin: 'null', want: true },
    { name: '* allows any page', named: ['*'], origin: 'https://evil.example', want: true },
    { name: '* still never echoes a non-origin', named: ['*'], origin: 'http://a.test/x', want: false },
  ];
  it.each(cases)('$name', ({ named, origin, want }) => {
    const policy = compileCors(contract.document, named);
    expect(policy.allows(origin)).toBe(want);
    expect(policy.headers(origin)['access-control-allow-origin']).toBe(want ? origin : undefined);
  });

  it('allows a request without Origin (curl, a server) whatever the list', () => {
    expect(cors.allows(undefined)).toBe(true);
  });

  it.each([
    { given: 'http://App.test:3000', want: { ok: true, value: 'http://app.test:3000' } },
    { given: 'https://app.test/', want: { ok: true, value: 'https://app.test' } },
    { given: '*', want: { ok: true, value: '*' } },
    { given: 'null', want: { ok: true, value: 'null' } },
    { given: 'app.test', want: { ok: false } },
    { given: 'https://app.test/path', want: { ok: false } },
    { given: '', want: { ok: false } },
  ])('--cors-origin "$given" reads as $want.value', ({ given, want }) => {
    expect(parseCorsOrigin(given)).toMatchObject(want);
  });
});

describe('the answer to a preflight (D14)', () => {
  type Asked = { origin?: string; method?: string; headers?: string; privateNetwork?: string };
  const preflight = (asked: Asked, methods: string[]) => {
    const sent: Record<string, string | undefined> = {
      origin: asked.origin,
      'access-control-request-method': asked.method,
      'access-control-request-headers': asked.headers,
      'access-control-request-private-network': asked.privateNetwork,
    };
    return cors.preflight({ header: (name) => sent[name] }, methods);
  };
  it('grants nothing to a foreign page, keeping Allow', () => {
    const headers = preflight({ origin: 'https://evil.example', method: 'DELETE', privateNetwork: 'true' }, [
      'DELETE',
      'OPTIONS',
    ]);
    expect(Object.keys(headers).filter((name) => name.startsWith('access-control-'))).toEqual([]);
    expect(headers.allow).toBe('DELETE, OPTIONS');
  });

  const origin = 'http://localhost:5173';
  const methodCases = [
    {
      name: 'allows the documented methods',
      methods: ['GET', 'OPTIONS'],
      asked: 'GET',
      want: 'GET, OPTIONS',
    },
    {
      name: 'adds an undocumented method asked for, so the page sees the 405',
      methods: ['GET', 'OPTIONS'],
      asked: 'PUT',
      want: 'GET, OPTIONS, PUT',
    },
    { name: 'allows what is asked on an unknown path', methods: [], asked: 'DELETE', want: 'DELETE' },
    {
      name: 'never echoes a value that is not a method token',
      methods: ['GET'],
      asked: 'GET\u0000X',
      want: 'GET',
    },
    { name: 'never echoes an overlong method', methods: ['GET'], asked: 'X'.repeat(33), want: 'GET' },
  ];
  it.each(methodCases)('$name', ({ methods, asked, want }) => {
    expect(preflight({ origin, method: asked }, methods)['access-control-allow-methods']).toBe(want);
  });

  const headerCases = [
    {
      name: 'reflects a tracing header with the key header',
      asked: 'authorization,x-request-id',
      want: 'authorization, x-request-id',
    },
    { name: 'reflects a single custom header', asked: 'X-Request-Id', want: 'X-Request-Id' },
    {
      name: 'names the headers the mock reads when none are asked',
      asked: undefined,
      want: 'Authorization, Content-Type, Prefer, X-Mock-Session',
    },
    {
      name: 'never reflects a list with a non-token',
      asked: 'x-request-id, bad header',
      want: 'Authorization, Content-Type, Prefer, X-Mock-Session',
    },
    {
      name: 'never reflects an overlong list',
      asked: Array.from({ length: 200 }, (_, i) => `x-h${i}`).join(','),
      want: 'Authorization, Content-Type, Prefer, X-Mock-Session',
    },
  ];
  it.each(headerCases)('$name', ({ asked, want }) => {
    expect(
      preflight({ origin, method: 'GET', headers: asked }, ['GET'])['access-control-allow-headers'],
    ).toBe(want);
  });

  it('reflects the origin with credentials and varies on what it reflects', () => {
    const headers = preflight({ origin, method: 'DELETE', headers: 'x-request-id' }, ['DELETE', 'OPTIONS']);
    expect(headers).toMatchObject({
      'access-control-allow-origin': origin,
      'access-control-allow-credentials': 'true',
      'access-control-max-age': '600',
    });
    expect(headers.vary?.split(', ')).toEqual(
      expect.arrayContaining(['Origin', 'Access-Control-Request-Method', 'Access-Control-Request-Headers']),
    );
  });

  it('keeps Allow to the documented methods', () => {
    expect(preflight({ origin, method: 'PUT' }, ['DELETE', 'OPTIONS']).allow).toBe('DELETE, OPTIONS');
    expect(preflight({ origin, method: 'GET' }, []).allow).toBeUndefined();
  });

  it.each([
    { given: 'true', want: 'true' },
    { given: undefined, want: undefined },
    { given: 'false', want: undefined },
  ])('answers Private Network Access "$given" with $want', ({ given, want }) => {
    const headers = preflight({ origin, method: 'GET', privateNetwork: given }, ['GET']);
    expect(headers['access-control-allow-private-network']).toBe(want);
  });
});
