/** The validating proxy as a library: it passes every exchange through unchanged and judges it (D20). */
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, Agent as HttpAgent, type IncomingMessage, type ServerResponse } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { resolve } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { type Contract, defaultContract } from '../contract/index.js';
import { oneOf } from '../flags.js';
import { withoutBodies } from '../judge/report/input.js';
import { FILE_REPORTERS, type FileReporter, writeReports } from '../judge/report/write.js';
import type { ConformanceResult } from '../judge/types.js';
import { allowsHost } from '../mock/cors.js';
import { FindingLog, findingLine, MAX_KEPT_FINDINGS, type ProxyFinding } from './findings.js';
import { forward } from './forward.js';
import { LIVE_PAGE_SCRIPT, LIVE_PAGE_STYLE, liveAnswer, pageAnswer, renderLivePage } from './live-page.js';
import { type ProxyErrorResponse, proxyError, rawBadRequest, writeAnswer } from './proxy-errors.js';
import { Recorder } from './record.js';
import { proxyResult } from './report.js';
import { TrafficJudge } from './traffic-judge.js';
import { parseUpstream, type Upstream } from './upstream.js';

export type { Party, ProxyFinding } from './findings.js';
export { findingLine } from './findings.js';
export { PROXY_ERRORS } from './proxy-errors.js';

/** Findings per page of `GET /__proxy/findings`, by default and at most, and a page's byte bound. */
export const FINDINGS_PAGE = 100;
export const MAX_FINDINGS_PAGE = 1_000;
const MAX_FINDINGS_PAGE_BYTES = 1024 * 1024;

/** The suite's 1 MiB: the most bytes of a body copied for judging. */
export const DEFAULT_CAPTURE_BYTES = 1024 * 1024;
export const DEFAULT_TIMEOUT_MS = 30_000;
/** Upstream connections at once, and pipelined requests waiting on one client connection (issue 25). */
export const MAX_UPSTREAM_CONNECTIONS = 64;
export const MAX_PIPELINED = 32;
export const DEFAULT_OUTPUT_DIR = 'reports/proxy';
export { FILE_REPORTERS, type FileReporter };

export interface ProxyOptions {
  /** The server's base URL, ending in its version segment: `http://127.0.0.1:4010/v1`. */
  upstream: string;
  /** The contract the traffic is judged against; default the toolkit's own (`spec/openapi.yaml`). */
  contract?: Contract;
  /** Replace an answer that breaks the contract by a 502 Error naming the finding (for test runs). */
  errors?: boolean;
  /** Milliseconds until the upstream's status line, and between chunks of its body. Default 30 000. */
  timeoutMs?: number;
  /** The most bytes of each body copied for judging (and held under `errors`). Default 1 MiB. */
  captureBytes?: number;
  /** Judge the client's requests too (warnings). Default true; off for the conformance suite as client. */
  judgeClient?: boolean;
  /** This proxy sees every request the upstream gets: unexplained changes fail instead of warn (D20). */
  soleClient?: boolean;
  /** Called with each finding as it is made, and its one-line form. */
  onFinding?: (found: ProxyFinding, line: string) => void;
  /** Report files written by `close()`. Default none. */
  reporters?: readonly FileReporter[];
  /** Where `close()` writes them. Default `reports/proxy`. */
  outputDir?: string;
  /** The most findings kept for display per party (all are counted). Default 10,000. */
  maxFindings?: number;
  /** Keep response body excerpts in the result and the reports. Default true; `--no-bodies` is false. */
  bodies?: boolean;
  /** `--record FILE`: write the orders the upstream's lists show as a fixture file; `note` gets problems. */
  record?: { file: string; note?: (line: string) => void };
  /** Host names `/__proxy/` answers to besides the local ones (`--allowed-host`). */
  allowedHosts?: readonly string[];
}

/** A usage error of {@link createProxy}: the message names the option and the fix. */
export class ProxyOptionsError extends Error {}

export interface ProxyInfo {
  /** `http://127.0.0.1:4020` */
  url: string;
  /** The URL clients use instead of the upstream's: `http://127.0.0.1:4020/v1`. */
  baseUrl: string;
  port: number;
}

export interface ProxyClosed {
  result: ConformanceResult;
  written: string[];
}

export interface ValidatingProxy {
  readonly upstream: Upstream;
  /** Listens on a port (`0` picks a free one); rejects with the socket error, e.g. EADDRINUSE. */
  listen(options?: { port?: number; host?: string }): Promise<ProxyInfo>;
  /** The findings so far, oldest first. */
  findings(): readonly ProxyFinding[];
  /** The report so far. */
  result(): ConformanceResult;
  /** Stops listening, lets answers in flight finish (up to a second), writes the reports. */
  close(): Promise<ProxyClosed>;
}

function integerOption(name: string, value: number | undefined, fallback: number, max: number): number {
  if (value === undefined || (Number.isInteger(value) && value >= 1 && value <= max))
    return value ?? fallback;
  throw new ProxyOptionsError(`${name} must be a whole number from 1 to ${max}, got ${value}`);
}

const HOST_NOT_ALLOWED = proxyError(
  'hostNotAllowed',
  'the /__proxy/ paths answer only to a local Host (localhost, 127.0.0.0/8, [::1]) or one named with --allowed-host',
);
const FORBIDDEN = proxyError(
  'forbidden',
  "the /__proxy/ paths answer only the proxy's own page and local tools, not another site's page",
);
const NOT_FOUND = proxyError(
  'notFound',
  "the proxy serves only GET /__proxy/ (the live page), /__proxy/findings and the page's own files under /__proxy/",
);

/** A whole-number query parameter, its fallback when absent, `null` when out of range. */
function wholeParameter(raw: string | null, fallback: number, max: number): number | null {
  if (raw === null || raw === '') return fallback;
  return /^\d{1,16}$/.test(raw) && Number(raw) <= max ? Number(raw) : null;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '0.0.0.0', '::']);

/** Whether the upstream is the proxy's own address (it would forward to itself forever). */
function isOwnAddress(upstream: Upstream, host: string, port: number): boolean {
  if (upstream.port !== port) return false;
  const name = upstream.hostname.toLowerCase();
  return (
    name === host.toLowerCase() || (LOOPBACK.has(name) && (LOOPBACK.has(host) || host.startsWith('127.')))
  );
}

/** @example const proxy = createProxy({ upstream: 'http://127.0.0.1:4010/v1', errors: true }) // throws ProxyOptionsError */
export function createProxy(options: ProxyOptions): ValidatingProxy {
  const parsed = parseUpstream(options.upstream);
  if (!parsed.ok) throw new ProxyOptionsError(parsed.error);
  const upstream = parsed.value;
  const timeoutMs = integerOption('timeoutMs', options.timeoutMs, DEFAULT_TIMEOUT_MS, 2 ** 31 - 1);
  const captureBytes = integerOption('captureBytes', options.captureBytes, DEFAULT_CAPTURE_BYTES, 2 ** 30);
  const reporters = options.reporters ?? [];
  for (const name of reporters) {
    const known = oneOf(FILE_REPORTERS)(name, 'reporter');
    if (!known.ok) throw new ProxyOptionsError(known.error);
  }
  const outputDir = resolve(options.outputDir ?? DEFAULT_OUTPUT_DIR);
  const { onFinding } = options;
  const maxFindings = integerOption('maxFindings', options.maxFindings, MAX_KEPT_FINDINGS, 1_000_000);
  const log = new FindingLog(onFinding && ((found) => onFinding(found, findingLine(found))), maxFindings);
  // A request that comes back carrying this `Via` went round in a loop.
  const via = `1.1 petstore-proxy-${randomBytes(8).toString('hex')}`;
  const contract = options.contract ?? defaultContract();
  const { record } = options;
  const note = record?.note ?? console.warn;
  const recorder =
    record && new Recorder({ file: resolve(record.file), upstream: upstream.baseUrl, contract, note });
  const recordProblem = recorder?.write();
  if (recordProblem) throw new ProxyOptionsError(recordProblem);
  const judge = new TrafficJudge({
    contract,
    upstream,
    log,
    replaceViolations: options.errors === true,
    judgeClient: options.judgeClient !== false,
    decodedBytes: captureBytes,
    soleClient: options.soleClient === true,
    record: recorder,
  });
  const agentOptions = { keepAlive: true, maxSockets: MAX_UPSTREAM_CONNECTIONS };
  const agent = upstream.protocol === 'https:' ? new HttpsAgent(agentOptions) : new HttpAgent(agentOptions);
  const startedAt = new Date();
  const forwardOptions = { upstream, agent, timeoutMs, captureBytes, hold: options.errors === true, via };

  const began = performance.now(); // a monotonic duration, whatever the wall clock does
  const result = () => proxyResult(startedAt, log, judge, performance.now() - began);

  const summary = () => ({ exchanges: judge.exchanges, ...log.tallies, total: log.total });

  const live = (url: URL): ProxyErrorResponse => {
    const since = wholeParameter(url.searchParams.get('since'), 0, Number.MAX_SAFE_INTEGER);
    if (since === null)
      return proxyError('badRequest', 'since must be a whole number, e.g. /__proxy/live?since=0');
    return liveAnswer(summary(), log.page(since, Number.MAX_SAFE_INTEGER));
  };

  const findingsPage = (url: URL): ProxyErrorResponse => {
    const since = wholeParameter(url.searchParams.get('since'), 0, Number.MAX_SAFE_INTEGER);
    const limit = wholeParameter(url.searchParams.get('limit'), FINDINGS_PAGE, MAX_FINDINGS_PAGE);
    if (since === null || limit === null || limit === 0) {
      const example = `/__proxy/findings?since=0&limit=${FINDINGS_PAGE}`;
      const detail = `since must be a whole number and limit one from 1 to ${MAX_FINDINGS_PAGE}, e.g. ${example}`;
      return proxyError('badRequest', detail);
    }
    const page: string[] = [];
    let bytes = 0;
    let last = since;
    for (const found of log.page(since, limit)) {
      const text = JSON.stringify(found);
      if (page.length > 0 && bytes + text.length > MAX_FINDINGS_PAGE_BYTES) break;
      page.push(text);
      bytes += text.length;
      last = found.seq;
    }
    const { exchanges, ...counts } = summary();
    const head = JSON.stringify({
      tool: 'petstore proxy',
      upstream: upstream.baseUrl,
      exchanges,
      summary: { ...counts, notKept: log.dropped },
      next: log.page(last, 1).length > 0 ? `/__proxy/findings?since=${last}&limit=${limit}` : null,
    });
    return pageAnswer('application/json', `${head.slice(0, -1)},"findings":[${page.join(',')}]}`, 'findings');
  };

  const control = (req: IncomingMessage): ProxyErrorResponse => {
    const url = new URL(req.url ?? '/', 'http://proxy.invalid');
    // Findings describe a developer's traffic: no CORS, and no other site's page may read them. A page
    // whose DNS name was rebound to 127.0.0.1 is same-origin; only its Host tells.
    if (!allowsHost(req.headers.host, options.allowedHosts ?? [])) return HOST_NOT_ALLOWED;
    const site = req.headers['sec-fetch-site'];
    const origin = req.headers.origin;
    if (site !== undefined && site !== 'same-origin' && site !== 'none') return FORBIDDEN;
    if (origin !== undefined && origin !== `http://${req.headers.host ?? ''}`) return FORBIDDEN;
    switch (req.method === 'GET' ? url.pathname.replace(/^\/__proxy$/, '/__proxy/') : '') {
      case '/__proxy/':
        return pageAnswer('text/html; charset=utf-8', renderLivePage(upstream.baseUrl, log.kept, summary()));
      case '/__proxy/page.js':
        return pageAnswer('text/javascript; charset=utf-8', LIVE_PAGE_SCRIPT);
      case '/__proxy/page.css':
        return pageAnswer('text/css; charset=utf-8', LIVE_PAGE_STYLE);
      case '/__proxy/live':
        return live(url);
      case '/__proxy/findings':
        return findingsPage(url);
      default:
        return NOT_FOUND;
    }
  };

  const server = createServer({ keepAliveTimeout: 5_000 }, (req, res) => {
    if (/^\/__proxy(?:[/?]|$)/.test(req.url ?? '')) writeAnswer(res, control(req));
    else if (!req.headers.via?.includes(via)) lineUp(req, res);
    else {
      const detail = `the request came back to the proxy that forwarded it: --upstream ${upstream.baseUrl} leads back to this proxy; point it at the server`;
      writeAnswer(res, proxyError('loop', detail));
    }
  });

  // Pipelined requests go upstream one at a time, in order; past MAX_PIPELINED waiting the connection is
  // closed unanswered, as RFC 9112 §9.3.2 allows (issue 25).
  const lines = new WeakMap<Socket, Array<() => void>>();
  const lineUp = (req: IncomingMessage, res: ServerResponse): void => {
    const socket = req.socket;
    const line = lines.get(socket) ?? [];
    lines.set(socket, line);
    if (line.length > MAX_PIPELINED) socket.destroy();
    if (!socket.writable) return;
    const next = () => {
      line.shift();
      line[0]?.();
    };
    line.push(() => {
      if (!socket.writable) return next();
      res.once('close', next);
      // A cancel is tracked from its request on, so a double click's two answers are judged together;
      // it settles after the judgement, which runs just after the answer is sent.
      const flight = judge.opened(req.method ?? 'GET', req.url ?? '/');
      if (flight !== null) res.once('close', () => setImmediate(() => judge.settle(flight)));
      forward(req, res, { ...forwardOptions, judge: (captured) => judge.judge(captured, flight) });
    });
    if (line.length === 1) line[0]?.();
  };
  server.on('connect', (_req, socket) => {
    socket.on('error', () => socket.destroy());
    socket.end(rawBadRequest('CONNECT is not supported: the proxy forwards API requests only'));
  });
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (error.code === 'ECONNRESET' || !socket.writable) socket.destroy();
    else socket.end(rawBadRequest('the request is not valid HTTP, so it was not forwarded'));
  });

  let closed: Promise<ProxyClosed> | null = null;
  return {
    upstream,
    async listen({ port = 4020, host = '127.0.0.1' } = {}) {
      await once(server.listen(port, host), 'listening');
      const { port: bound } = server.address() as AddressInfo;
      if (isOwnAddress(upstream, host, bound)) {
        server.close();
        const own = `--upstream ${upstream.baseUrl} is the proxy's own address (${host}:${bound})`;
        throw new ProxyOptionsError(`${own}: it would forward to itself; point it at the server`);
      }
      const local = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
      const url = `http://${local.includes(':') ? `[${local}]` : local}:${bound}`;
      return { url, baseUrl: `${url}${upstream.basePath}`, port: bound };
    },
    findings: () => log.kept,
    result,
    close() {
      closed ??= (async () => {
        if (server.listening) {
          const stopped = new Promise<void>((done) => server.close(() => done()));
          server.closeIdleConnections();
          const grace = setTimeout(() => server.closeAllConnections(), 1_000);
          await stopped;
          clearTimeout(grace);
        }
        await nextTurn(); // the judgements that run just after each answer
        judge.flush();
        recorder?.close();
        agent.destroy();
        const final = options.bodies === false ? withoutBodies(result()) : result();
        const { written, failure, cause } = writeReports(outputDir, 'proxy', reporters, final);
        if (failure !== null) throw new Error(failure, { cause }); // the fs error's `code` stays on `cause`
        return { result: final, written: written.map(([, path]) => path) };
      })();
      return closed;
    },
  };
}
