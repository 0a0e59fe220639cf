/**
 * The suite is a scripted client plus the judge; the proxy is forwarded traffic plus the judge. One
 * recorded exchange sequence (request, answer, in order) is replayed through both, and both must reach
 * the same cross-request verdict: the same rules at the same levels.
 */

import { describe, expect, it } from 'vitest';
import { genericChecks } from '../src/conformance/checks/index.js';
import { CheckContext } from '../src/conformance/context.js';
import { DEFAULT_RETRY_POLICY } from '../src/conformance/gateway.js';
import { loadContract } from '../src/contract/compile.js';
import { type Contract, defaultContract } from '../src/contract/index.js';
import { NO_AUTH, VALID_AUTH } from '../src/judge/exchange.js';
import { createProxy } from '../src/proxy/index.js';
import { v2Draft } from './contracts/v2-draft.js';
import { TARGET_KEY } from './servers/reference-server.js';
import { serve } from './servers/serve.js';

const contract = defaultContract();

interface Recorded {
  method: 'GET' | 'DELETE';
  path: string;
  keyed: boolean;
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

const order = (id: number, complete = false) => ({ id, petId: 10, quantity: 1, complete });
const error = (status: number) => ({ code: 'x', message: 'x', status });
const rec = (
  method: Recorded['method'],
  path: string,
  status: number,
  body: unknown = null,
  keyed = true,
) => ({
  method,
  path,
  keyed,
  status,
  body,
});

/** A server with every cross-request bug at once, as it answered one client. */
const SEQUENCE: Recorded[] = [
  rec('GET', '/store/orders', 200, [order(1), order(2, true), order(3), order(5), order(7)]),
  rec('DELETE', '/store/orders/3', 204),
  rec('GET', '/store/orders', 200, [order(1), order(2, true), order(5), order(7)]),
  rec('DELETE', '/store/orders/2', 409, error(409)),
  rec('DELETE', '/store/orders/2', 204),
  rec('GET', '/store/orders', 200, [order(1), order(3), order(5)]),
  rec('GET', '/pets/10', 401, error(401)),
  rec('DELETE', '/store/orders/5', 204),
  rec('DELETE', '/store/orders/5', 204),
  rec('DELETE', '/store/orders/1', 409, error(409)),
  rec('GET', '/store/orders', 200, [order(3), order(5)]),
  rec('GET', '/store/orders', 401, error(401), false),
];

/** Answers the recorded responses in order, whatever is asked. */
async function replaying(sequence: readonly Recorded[]) {
  let next = 0;
  return serve((_req, res) => {
    const answer = sequence[next++];
    if (!answer) throw new Error('the replay ran past the recording');
    const body = answer.body === null ? '' : JSON.stringify(answer.body);
    const type = answer.body === null ? {} : { 'content-type': 'application/json' };
    res.writeHead(answer.status, { ...type, ...answer.headers });
    res.end(body);
  });
}

type Verdict = Array<[rule: string, level: string]>;

function suiteContext(baseUrl: string, against: Contract): CheckContext {
  return new CheckContext({
    baseUrl,
    apiKey: TARGET_KEY,
    pendingOrders: [],
    shippedOrders: [],
    retry: DEFAULT_RETRY_POLICY,
    environment: 'auto',
    liveProbeMs: 0,
    fuzz: { requests: 0, timeMs: null, seed: 1 },
    destructive: false,
    timeoutMs: 5_000,
    maxBodyBytes: 1024 * 1024,
    only: [],
    petId: null,
    fetch: globalThis.fetch,
    contract: against,
  });
}

async function throughTheSuite(
  sequence: readonly Recorded[],
  rules: 'state' | 'exchange' = 'state',
): Promise<Verdict> {
  const target = await replaying(sequence);
  try {
    const ctx = suiteContext(target.baseUrl, contract);
    for (const r of sequence)
      await ctx.request({ method: r.method, path: r.path, auth: r.keyed ? VALID_AUTH : NO_AUTH });
    if (rules === 'exchange')
      return ctx.exchanges.flatMap((e) => e.judged.map((f): [string, string] => [f.rule, f.level]));
    return ctx.observations.map((o) => [o.rule, o.level]);
  } finally {
    await target.close();
  }
}

async function throughTheProxy(
  sequence: readonly Recorded[],
  rules: 'state' | 'exchange' = 'state',
): Promise<Verdict> {
  const target = await replaying(sequence);
  const proxy = createProxy({ upstream: target.baseUrl, judgeClient: false });
  try {
    const { baseUrl } = await proxy.listen({ port: 0 });
    for (const r of sequence) {
      const headers: Record<string, string> = r.keyed ? { authorization: `Bearer ${TARGET_KEY}` } : {};
      await (await fetch(`${baseUrl}${r.path}`, { method: r.method, headers })).arrayBuffer();
    }
    await proxy.close();
    return proxy
      .findings()
      .filter((f) => f.rule.startsWith('state.') === (rules === 'state'))
      .map((f) => [f.rule, f.level]);
  } finally {
    await proxy.close();
    await target.close();
  }
}

describe('the suite and the proxy reach the same verdict on the same exchanges', () => {
  it('on a recording with every cross-request bug', async () => {
    const suite = await throughTheSuite(SEQUENCE);
    const proxy = await throughTheProxy(SEQUENCE);
    expect(suite).toEqual(proxy);
    expect(suite).toEqual([
      ['state.cancel-after-refusal', 'failure'],
      ['state.cancelled-returns', 'failure'],
      ['state.vanished', 'warning'],
      ['state.key-inconsistent', 'failure'],
      ['state.second-204', 'failure'],
      ['state.409-on-pending', 'warning'],
      ['state.refused-then-gone', 'failure'],
      ['state.cancelled-still-listed', 'failure'],
    ]);
  });

  it('on each exchange alone: every exchange of the suite goes through judgeExchange, as the proxy does', async () => {
    const faults: Recorded[] = [
      rec('GET', '/store/orders', 200, [order(1)], true),
      rec('GET', '/store/orders', 200, [order(1)], false),
      rec('DELETE', '/store/orders/1', 500, error(500)),
      rec('DELETE', '/store/orders/1', 204, null, true),
      { ...rec('DELETE', '/store/orders/2', 204), headers: { 'content-type': 'application/json' } },
      rec('DELETE', '/store/orders/abc', 200, { ok: true }),
      rec('GET', '/store/orders?a=x', 400, { message: 'unknown parameter a' }),
      rec('GET', '/store/orders', 404, { message: 'no' }),
      rec('GET', '/no-such-path', 200, []),
      { ...rec('GET', '/pets/10', 404, error(404)), headers: { deprecation: '@1767225600' } },
    ];
    const suite = await throughTheSuite(faults, 'exchange');
    expect(suite).toEqual(await throughTheProxy(faults, 'exchange'));
    expect(suite).toEqual([
      ['auth', 'failure'],
      ['server-error', 'failure'],
      ['headers', 'warning'],
      ['status', 'failure'],
      ['status', 'failure'],
      ['route', 'warning'],
      ['headers', 'warning'],
    ]);
  });

  it('on a correct server that keeps cancelled orders listed (D16)', async () => {
    const keeps: Recorded[] = [
      rec('GET', '/store/orders', 200, [order(1), order(2, true), order(3)]),
      rec('DELETE', '/store/orders/3', 204),
      rec('GET', '/store/orders', 200, [order(1), order(2, true), order(3, true)]),
      rec('DELETE', '/store/orders/2', 409, error(409)),
      rec('DELETE', '/store/orders/2', 409, error(409)),
      rec('DELETE', '/store/orders/3', 409, error(409)),
      rec('GET', '/pets/10', 404, error(404)),
      rec('GET', '/store/orders', 200, [order(1), order(2, true), order(3, true)]),
    ];
    expect(await throughTheSuite(keeps)).toEqual([]);
    expect(await throughTheProxy(keeps)).toEqual([]);
  });
});

describe('an invalid declared parameter may get any 4xx (D21): the check expects the status class alone', () => {
  it('passes a 422 with an HTML body to ?limit=0 on the v2 draft in the suite, as the proxy does', async () => {
    const loaded = loadContract(v2Draft());
    if (!loaded.ok) throw new Error(loaded.error);
    const draft = loaded.value;
    const target = await serve((_req, res) => {
      res.writeHead(422, { 'content-type': 'text/html' });
      res.end('<p>no</p>');
    });
    const proxy = createProxy({ upstream: target.baseUrl, judgeClient: false, contract: draft });
    try {
      const ctx = suiteContext(target.baseUrl, draft);
      const check = genericChecks(draft).find((c) => c.id === 'generic.listOrders.param.limit.invalid');
      const judgement = await check?.run(ctx, []);
      expect(ctx.exchanges.map((e) => e.path)).toContain('/store/orders?limit=0');
      const { baseUrl } = await proxy.listen({ port: 0 });
      for (const e of ctx.exchanges) {
        const headers = { authorization: `Bearer ${TARGET_KEY}` };
        await (await fetch(`${baseUrl}${e.path}`, { headers })).arrayBuffer();
      }
      await proxy.close();
      expect(proxy.findings()).toEqual([]);
      expect(judgement?.kind).toBe('pass');
    } finally {
      await proxy.close();
      await target.close();
    }
  });
});
