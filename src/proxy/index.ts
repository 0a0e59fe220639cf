/**
 * The validating proxy of the Pet Store Orders API, as a library: put it between a real client and a
 * real server, and it passes every exchange through unchanged while judging it against the contract and
 * the cancel rules (D20). docs/proxy.md describes the findings and the three ways to use it.
 *
 * @example
 * const proxy = createProxy({ upstream: 'http://127.0.0.1:4010/v1', onFinding: (_f, line) => console.error(line) });
 * const { baseUrl } = await proxy.listen({ port: 4020 });   // http://127.0.0.1:4020/v1
 * // … traffic …
 * const { result } = await proxy.close();                   // the suite's report shape
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import {
  createServer,
  Agent as HttpAgent,
  type IncomingMessage,
  type Server,
  type ServerResponse,
  STATUS_CODES,
} from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { join, resolve } from 'node:path';
import { type Contract, defaultContract } from '../contract/index.js';
import { ensureDirectory } from '../judge/report/ensure-dir.js';
import { renderHtml } from '../judge/report/html.js';
import { renderJson } from '../judge/report/json.js';
import { renderJunit } from '../judge/report/junit.js';
import { withoutBodies } from '../judge/report/omit-bodies.js';
import type { ConformanceResult } from '../judge/types.js';
import { allowsHost } from '../mock/cors.js';
import {
  type CheckCount,
  FindingLog,
  findingLine,
  MAX_KEPT_FINDINGS,
  type ProxyFinding,
} from './findings.js';
import { forward } from './forward.js';
import {
  LIVE_PAGE_CSP,
  LIVE_PAGE_FINDINGS,
  LIVE_PAGE_SCRIPT,
  LIVE_PAGE_STYLE,
  type LiveSummary,
  renderLiveFinding,
  renderLivePage,
  summaryLine,
} from './live-page.js';
import { PROXY_HEADER, type ProxyErrorResponse, proxyError } from './proxy-errors.js';
import { type RecordedExchange, Recorder } from './record.js';
import { proxyResult } from './report.js';
import { TrafficJudge } from './traffic-judge.js';
import { parseUpstream, type Upstream } from './upstream.js';

export type { Party, ProxyFinding } from './findings.js';
export { findingLine } from './findings.js';
export { PROXY_ERRORS } from './proxy-errors.js';

/** Findings per page of `GET /__proxy/findings`, by default and at most, and the most bytes of a page. */
export const FINDINGS_PAGE = 100;
export const MAX_FINDINGS_PAGE = 1_000;
const MAX_FINDINGS_PAGE_BYTES = 1024 * 1024;

/** The suite's 1 MiB: the most bytes of a body copied for judging. */
export const DEFAULT_CAPTURE_BYTES = 1024 * 1024;
export const DEFAULT_TIMEOUT_MS = 30_000;
/**
 * Upstream connections open at once, and requests waiting behind the one in flight on a client connection
 * (pipelined): past either bound a flood waits or is cut, instead of stalling every other client (issue 25).
 */
export const MAX_UPSTREAM_CONNECTIONS = 64;
export const MAX_PIPELINED = 32;
export const FILE_REPORTERS = ['json', 'junit', 'html'] as const;
export type FileReporter = (typeof FILE_REPORTERS)[number];
export const REPORT_FILES: Record<FileReporter, string> = {
  json: 'proxy.json',
  junit: 'proxy-junit.xml',
  html: 'proxy.html',
};
const RENDER: Record<FileReporter, (result: ConformanceResult) => string> = {
  json: renderJson,
  junit: (result) => renderJunit(result),
  html: (result) => renderHtml(result),
};
export const DEFAULT_OUTPUT_DIR = 'reports/proxy';

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
  /**
   * Judge the client's requests too (a missing key, a malformed id: the client's findings, at warning
   * level). Default true; turn it off for a client that sends such requests on purpose, like the
   * conformance suite.
   */
  judgeClient?: boolean;
  /**
   * This proxy sees every request the upstream gets (D20): an order that vanishes or changes with no
   * request naming it is a failure. Default false: another client may have done it, so it is a warning.
   */
  soleClient?: boolean;
  /** Called with each finding as it is made, and its one-line form. */
  onFinding?: (found: ProxyFinding, line: string) => void;
  /** Report files written by `close()`. Default none. */
  reporters?: readonly FileReporter[];
  /** Where `close()` writes them. Default `reports/proxy`. */
  outputDir?: string;
  /**
   * The most findings kept for display for each party (the server's, the client's), besides 8 MiB each.
   * Every finding is counted toward the verdict whatever is kept. Default 10,000.
   */
  maxFindings?: number;
  /** Keep response body excerpts in the result and the reports. Default true; `--no-bodies` is false. */
  bodies?: boolean;
  /**
   * `--record FILE`: write the orders the upstream's lists show into this fixture file (docs/proxy.md,
   * "Record and replay"); `note` gets a line when the file's bound is reached or a write fails.
   */
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
  /** The report files written. */
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
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1 || value > max) {
    throw new ProxyOptionsError(`${name} must be a whole number from 1 to ${max}, got ${value}`);
  }
  return value;
}

/** An answer written straight to a socket, which it closes. */
function rawAnswer(own: ProxyErrorResponse): string {
  const head = Object.entries({ ...own.headers, connection: 'close' })
    .map(([name, value]) => `${name}: ${value}`)
    .join('\r\n');
  return `HTTP/1.1 ${own.status} ${STATUS_CODES[own.status] ?? ''}\r\n${head}\r\n\r\n${own.body}`;
}

/** A whole-number query parameter, its fallback when absent, `null` when it is not one in range. */
function wholeParameter(raw: string | null, fallback: number, max: number): number | null {
  if (raw === null || raw === '') return fallback;
  return /^\d{1,16}$/.test(raw) && Number(raw) <= max ? Number(raw) : null;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '0.0.0.0', '::']);

/** Whether an upstream is the proxy's own listening address (which would forward to itself forever). */
function isOwnAddress(upstream: Upstream, host: string, port: number): boolean {
  if (upstream.port !== port) return false;
  const name = upstream.hostname.toLowerCase();
  return (
    name === host.toLowerCase() || (LOOPBACK.has(name) && (LOOPBACK.has(host) || host.startsWith('127.')))
  );
}

function connectable(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}

/**
 * Creates a proxy in front of `options.upstream`. Throws {@link ProxyOptionsError} for unusable options.
 *
 * @example const proxy = createProxy({ upstream: 'http://127.0.0.1:4010/v1', errors: true })
 */
export function createProxy(options: ProxyOptions): ValidatingProxy {
  const parsed = parseUpstream(options.upstream);
  if (!parsed.ok) throw new ProxyOptionsError(parsed.error);
  const upstream = parsed.value;
  const timeoutMs = integerOption('timeoutMs', options.timeoutMs, DEFAULT_TIMEOUT_MS, 2 ** 31 - 1);
  const captureBytes = integerOption('captureBytes', options.captureBytes, DEFAULT_CAPTURE_BYTES, 2 ** 30);
  const reporters = options.reporters ?? [];
  for (const name of reporters) {
    if (!(FILE_REPORTERS as readonly string[]).includes(name)) {
      throw new ProxyOptionsError(
        `reporter ${JSON.stringify(name)} is unknown; use ${FILE_REPORTERS.join(', ')}`,
      );
    }
  }
  const outputDir = resolve(options.outputDir ?? DEFAULT_OUTPUT_DIR);
  const onFinding = options.onFinding;
  const maxFindings = integerOption('maxFindings', options.maxFindings, MAX_KEPT_FINDINGS, 1_000_000);
  const log = new FindingLog(
    onFinding ? (found) => onFinding(found, findingLine(found)) : undefined,
    maxFindings,
  );
  // Each forwarded request carries this in `Via`; one that comes back carrying it went round in a loop.
  const via = `1.1 petstore-proxy-${randomBytes(8).toString('hex')}`;
  const contract = options.contract ?? defaultContract();
  let recorder: Recorder | null = null;
  if (options.record) {
    try {
      recorder = new Recorder({
        file: resolve(options.record.file),
        upstream: upstream.baseUrl,
        contract,
        note: options.record.note ?? ((line) => console.warn(line)),
      });
    } catch (error) {
      throw new ProxyOptionsError((error as Error).message);
    }
  }
  const judge = new TrafficJudge({
    contract,
    upstream,
    log,
    replaceViolations: options.errors === true,
    judgeClient: options.judgeClient !== false,
    decodedBytes: captureBytes,
    soleClient: options.soleClient === true,
    ...(recorder ? { record: (exchange: RecordedExchange) => recorder.see(exchange) } : {}),
  });
  const agentOptions = { keepAlive: true, maxSockets: MAX_UPSTREAM_CONNECTIONS };
  const agent = upstream.protocol === 'https:' ? new HttpsAgent(agentOptions) : new HttpAgent(agentOptions);
  const startedAt = new Date();
  const t0 = performance.now();
  const forwardOptions = {
    upstream,
    agent,
    timeoutMs,
    captureBytes,
    hold: options.errors === true,
    via,
    judge: (captured: Parameters<TrafficJudge['judge']>[0]) => judge.judge(captured),
  };

  const result = (): ConformanceResult =>
    proxyResult({
      contract,
      upstreamUrl: upstream.baseUrl,
      startedAt: startedAt.toISOString(),
      durationMs: performance.now() - t0,
      findings: log.all(),
      counts: log.checks(),
      exchanges: judge.exchanges,
      statuses: judge.statuses,
      reading: judge.tracker.reading,
      unjudgedBodies: judge.unjudgedBodies,
    });

  const summary = (): LiveSummary => {
    const counts = [...log.checks().values()];
    const sum = (keep: (c: CheckCount) => boolean) => counts.filter(keep).reduce((n, c) => n + c.count, 0);
    return {
      exchanges: judge.exchanges,
      failures: sum((c) => c.party === 'server' && c.level === 'failure'),
      warnings: sum((c) => c.party === 'server' && c.level === 'warning'),
      client: sum((c) => c.party === 'client'),
      total: log.total,
    };
  };

  const own = (res: ServerResponse, answer: ProxyErrorResponse): void => {
    res.writeHead(answer.status, answer.headers);
    res.end(answer.body);
  };

  /** One of the live page's answers: never cached, never framed, never sniffed, under the page's CSP. */
  const pageAnswer = (res: ServerResponse, type: string, body: string, name: string): void => {
    res.writeHead(200, {
      'content-type': type,
      'content-length': String(Buffer.byteLength(body)),
      'cache-control': 'no-store',
      'content-security-policy': LIVE_PAGE_CSP,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      [PROXY_HEADER]: name,
    });
    res.end(body);
  };

  /** The proxy's own paths, under `/__proxy/`; never forwarded. */
  const control = (req: IncomingMessage, res: ServerResponse): void => {
    const url = new URL(req.url ?? '/', 'http://proxy.invalid');
    // A page whose DNS name was rebound to 127.0.0.1 is same-origin to the proxy; only its Host tells.
    if (!allowsHost(req.headers.host, options.allowedHosts ?? [])) {
      own(
        res,
        proxyError(
          'hostNotAllowed',
          'the /__proxy/ paths answer only to a local Host (localhost, 127.0.0.0/8, [::1]) or one named with --allowed-host',
        ),
      );
      return;
    }
    // Findings are redacted, but they describe a developer's traffic: no other site's page may read or
    // frame them. No CORS header is ever sent, and a request a browser marks as coming from another site
    // (Sec-Fetch-Site, or an Origin that is not this proxy's) is refused outright.
    const site = req.headers['sec-fetch-site'];
    const origin = req.headers.origin;
    if (
      (site !== undefined && site !== 'same-origin' && site !== 'none') ||
      (origin !== undefined && origin !== `http://${req.headers.host ?? ''}`)
    ) {
      own(
        res,
        proxyError(
          'forbidden',
          "the /__proxy/ paths answer only the proxy's own page and local tools, not another site's page",
        ),
      );
      return;
    }
    if (req.method === 'GET' && (url.pathname === '/__proxy/' || url.pathname === '/__proxy')) {
      pageAnswer(
        res,
        'text/html; charset=utf-8',
        renderLivePage(upstream.baseUrl, log.all(), summary()),
        'page',
      );
      return;
    }
    if (req.method === 'GET' && url.pathname === '/__proxy/page.js') {
      pageAnswer(res, 'text/javascript; charset=utf-8', LIVE_PAGE_SCRIPT, 'page');
      return;
    }
    if (req.method === 'GET' && url.pathname === '/__proxy/page.css') {
      pageAnswer(res, 'text/css; charset=utf-8', LIVE_PAGE_STYLE, 'page');
      return;
    }
    if (req.method === 'GET' && url.pathname === '/__proxy/live') {
      const since = wholeParameter(url.searchParams.get('since'), 0, Number.MAX_SAFE_INTEGER);
      if (since === null) {
        own(res, proxyError('badRequest', 'since must be a whole number, e.g. /__proxy/live?since=0'));
        return;
      }
      // The newest findings after `since`, as many as the page shows, each rendered as the report does.
      const after = log.page(since, Number.MAX_SAFE_INTEGER).slice(-LIVE_PAGE_FINDINGS);
      const now = summary();
      const body = JSON.stringify({
        summary: { ...now, line: summaryLine(now) },
        findings: after.map((f) => ({ seq: f.seq, html: renderLiveFinding(f) })),
      });
      pageAnswer(res, 'application/json', body, 'live');
      return;
    }
    if (req.method === 'GET' && url.pathname === '/__proxy/findings') {
      const since = wholeParameter(url.searchParams.get('since'), 0, Number.MAX_SAFE_INTEGER);
      const limit = wholeParameter(url.searchParams.get('limit'), FINDINGS_PAGE, MAX_FINDINGS_PAGE);
      if (since === null || limit === null || limit === 0) {
        const own = proxyError(
          'badRequest',
          `since must be a whole number and limit one from 1 to ${MAX_FINDINGS_PAGE}, e.g. /__proxy/findings?since=0&limit=${FINDINGS_PAGE}`,
        );
        res.writeHead(own.status, own.headers);
        res.end(own.body);
        return;
      }
      const counts = [...log.checks().values()];
      const sum = (keep: (c: CheckCount) => boolean) => counts.filter(keep).reduce((n, c) => n + c.count, 0);
      // A page is also cut at a size in bytes: a few long findings must not make one huge answer.
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
      const more = log.page(last, 1).length > 0;
      const head = JSON.stringify({
        tool: 'petstore proxy',
        upstream: upstream.baseUrl,
        exchanges: judge.exchanges,
        summary: {
          failures: sum((c) => c.party === 'server' && c.level === 'failure'),
          warnings: sum((c) => c.party === 'server' && c.level === 'warning'),
          client: sum((c) => c.party === 'client'),
          total: log.total,
          notKept: log.dropped,
        },
        next: more ? `/__proxy/findings?since=${last}&limit=${limit}` : null,
      });
      const body = `${head.slice(0, -1)},"findings":[${page.join(',')}]}`;
      res.writeHead(200, {
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
        'cache-control': 'no-store',
        [PROXY_HEADER]: 'findings',
      });
      res.end(body);
      return;
    }
    own(
      res,
      proxyError(
        'notFound',
        "the proxy serves only GET /__proxy/ (the live page), /__proxy/findings and the page's own files under /__proxy/",
      ),
    );
  };

  const server: Server = createServer({ keepAliveTimeout: 5_000 }, (req, res) => {
    if (req.url?.startsWith('/__proxy/') || req.url === '/__proxy' || req.url?.startsWith('/__proxy?'))
      control(req, res);
    else if (req.headers.via?.includes(via)) {
      // The request went through this very proxy before: forwarding it again would never end.
      const own = proxyError(
        'loop',
        `the request came back to the proxy that forwarded it: --upstream ${upstream.baseUrl} leads back to this proxy; point it at the server`,
      );
      res.writeHead(own.status, own.headers);
      res.end(own.body);
    } else lineUp(req, res);
  });

  /** Forwards one request; a cancel is tracked from its request on, so that a double click's two answers are judged together. */
  const send = (req: IncomingMessage, res: ServerResponse): void => {
    const flight = judge.opened(req.method ?? 'GET', req.url ?? '/');
    if (flight === null) forward(req, res, forwardOptions);
    else {
      // After the judgement, which runs just after the answer is sent: a client that went away is never judged.
      res.once('close', () => setImmediate(() => judge.settle(flight)));
      forward(req, res, { ...forwardOptions, judge: (captured) => judge.judge(captured, flight) });
    }
  };

  // Pipelined requests of one connection go upstream one at a time, in order (their answers go back in
  // that order anyway). One whose client has gone is never sent, and a connection with more than
  // MAX_PIPELINED requests waiting is closed unanswered, as RFC 9112 §9.3.2 lets a server do (issue 25).
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
      if (!socket.writable) next();
      else {
        res.once('close', next);
        send(req, res);
      }
    });
    if (line.length === 1) line[0]?.();
  };
  // CONNECT asks for a tunnel, which this proxy does not make: an Error, not a closed connection.
  server.on('connect', (_req, socket) => {
    socket.on('error', () => socket.destroy());
    socket.end(
      rawAnswer(proxyError('badRequest', 'CONNECT is not supported: the proxy forwards API requests only')),
    );
  });
  // A client that sends something node cannot parse gets an Error body, never a bare reset.
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    socket.end(rawAnswer(proxyError('badRequest', 'the request is not valid HTTP, so it was not forwarded')));
  });

  let closed: Promise<ProxyClosed> | null = null;
  return {
    upstream,
    listen({ port = 4020, host = '127.0.0.1' } = {}) {
      return new Promise((resolveListen, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          const { port: bound } = server.address() as AddressInfo;
          if (isOwnAddress(upstream, host, bound)) {
            server.close();
            reject(
              new ProxyOptionsError(
                `--upstream ${upstream.baseUrl} is the proxy's own address (${host}:${bound}): it would forward to itself; point it at the server`,
              ),
            );
            return;
          }
          const url = `http://${connectable(host)}:${bound}`;
          resolveListen({ url, baseUrl: `${url}${upstream.basePath}`, port: bound });
        });
      });
    },
    findings: () => log.all(),
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
        // Judgements run just after each answer is sent; let the last ones finish.
        await new Promise((done) => setImmediate(done));
        judge.flush();
        recorder?.close();
        agent.destroy();
        const final = options.bodies === false ? withoutBodies(result()) : result();
        const written: string[] = [];
        if (reporters.length > 0) {
          ensureDirectory(outputDir);
          // Each report is written even when another one cannot be: a failure is thrown after the rest.
          let failed: unknown = null;
          for (const name of reporters) {
            const path = join(outputDir, REPORT_FILES[name]);
            try {
              writeFileSync(path, RENDER[name](final));
              written.push(path);
            } catch (error) {
              failed ??= error;
            }
          }
          if (failed !== null) throw failed;
        }
        return { result: final, written };
      })();
      return closed;
    },
  };
}
