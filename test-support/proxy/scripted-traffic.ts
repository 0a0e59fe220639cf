/**
 * The scripted traffic of the proxy's proofs: what a client does (list, cancel a pending order, cancel it
 * again, cancel a shipped one, an unknown one, a malformed id, no key…), sent through a proxy in front of
 * one of the suite's test servers. Every request is sent in order and waits for its answer.
 */

import {
  createProxy,
  type ProxyFinding,
  type ProxyOptions,
  type ValidatingProxy,
} from '../../src/proxy/index.js';
import { type Behaviour, startTarget, TARGET_KEY } from '../servers/reference-server.js';

export interface Step {
  what: string;
  method: 'GET' | 'DELETE';
  path: string;
  /** The Authorization header, `null` for none. */
  authorization: string | null;
}

const KEY = `Bearer ${TARGET_KEY}`;
const step = (
  what: string,
  method: Step['method'],
  path: string,
  authorization: string | null = KEY,
): Step => ({
  what,
  method,
  path,
  authorization,
});

export const SCRIPT: readonly Step[] = [
  step('list', 'GET', '/store/orders'),
  step('cancel pending', 'DELETE', '/store/orders/3'),
  step('cancel again', 'DELETE', '/store/orders/3'),
  step('list after the cancel', 'GET', '/store/orders'),
  step('cancel pending, an id above 2^53', 'DELETE', '/store/orders/9007199254740993'),
  step('list after the cancel', 'GET', '/store/orders'),
  step('cancel shipped', 'DELETE', '/store/orders/2'),
  step('cancel shipped again', 'DELETE', '/store/orders/2'),
  step('cancel unknown', 'DELETE', '/store/orders/424242424'),
  step('malformed id', 'DELETE', '/store/orders/1.5'),
  step('no key', 'GET', '/store/orders', null),
  step('no key, cancel pending', 'DELETE', '/store/orders/7', null),
  step('no key, cancel unknown', 'DELETE', '/store/orders/424242424', null),
  step('empty token', 'GET', '/store/orders', 'Bearer '),
  step('unknown path', 'GET', '/unknown-path'),
  step('undocumented method', 'GET', '/store/orders/424242424'),
  step('the deprecated pets read', 'GET', '/pets/10'),
  step('no key, the deprecated pets read', 'GET', '/pets/10', null),
  step('list at the end', 'GET', '/store/orders'),
  step('list with the scheme in lower case (D7)', 'GET', '/store/orders', `bearer ${TARGET_KEY}`),
];

export interface Answer {
  step: Step;
  status: number;
  headers: Headers;
  text: string;
}

/** Sends the script through a proxy at `baseUrl`. */
export async function drive(baseUrl: string, script: readonly Step[] = SCRIPT): Promise<Answer[]> {
  const answers: Answer[] = [];
  for (const s of script) {
    const headers: Record<string, string> =
      s.authorization === null ? {} : { authorization: s.authorization };
    const response = await fetch(`${baseUrl}${s.path}`, { method: s.method, headers });
    answers.push({
      step: s,
      status: response.status,
      headers: response.headers,
      text: await response.text(),
    });
  }
  return answers;
}

export interface ProxiedRun {
  answers: Answer[];
  findings: readonly ProxyFinding[];
  lines: string[];
  proxy: ValidatingProxy;
}

/** Starts a test server with this behaviour and a proxy before it, drives the script, closes both. */
export async function throughProxy(
  behaviour: Behaviour,
  options: Omit<ProxyOptions, 'upstream'> = {},
  script: readonly Step[] = SCRIPT,
): Promise<ProxiedRun> {
  const target = await startTarget(behaviour);
  const lines: string[] = [];
  const proxy = createProxy({
    ...options,
    upstream: target.baseUrl,
    onFinding: (_f, line) => lines.push(line),
  });
  try {
    const { baseUrl } = await proxy.listen({ port: 0 });
    const answers = await drive(baseUrl, script);
    await proxy.close();
    return { answers, findings: proxy.findings(), lines, proxy };
  } finally {
    await proxy.close();
    await target.close();
  }
}
