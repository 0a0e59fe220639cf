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
import { writeFileSync } from 'node:fs';
import {
  createServer,
  Agent as HttpAgent,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { ensureDirectory } from '../judge/report/ensure-dir.js';
import { renderHtml } from '../judge/report/html.js';
import { renderJson } from '../judge/report/json.js';
import { renderJunit } from '../judge/report/junit.js';
import { withoutBodies } from '../judge/report/omit-bodies.js';
import type { ConformanceResult } from '../judge/types.js';
import { FindingLog, findingLine, type ProxyFinding } from './findings.js';
import { forward } from './forward.js';
import { PROXY_HEADER, proxyError } from './proxy-errors.js';
import { proxyResult } from './report.js';
import { TrafficJudge } from './traffic-judge.js';
import { parseUpstream, type Upstream } from './upstream.js';

export type { Party, ProxyFinding } from './findings.js';
export { findingLine } from './findings.js';
export { PROXY_ERRORS } from './proxy-errors.js';

/** The suite's 1 MiB: the most bytes of a body copied for judging. */
export const DEFAULT_CAPTURE_BYTES = 1024 * 1024;
export const DEFAULT_TIMEOUT_MS = 30_000;
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
  /** Called with each finding as it is made, and its one-line form. */
  onFinding?: (found: ProxyFinding, line: string) => void;
  /** Report files written by `close()`. Default none. */
  reporters?: readonly FileReporter[];
  /** Where `close()` writes them. Default `reports/proxy`. */
  outputDir?: string;
  /** Keep response body excerpts in the result and the reports. Default true; `--no-bodies` is false. */
  bodies?: boolean;
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
  const log = new FindingLog(onFinding ? (found) => onFinding(found, findingLine(found)) : undefined);
  const judge = new TrafficJudge({
    upstream,
    log,
    replaceViolations: options.errors === true,
    judgeClient: options.judgeClient !== false,
  });
  const agent =
    upstream.protocol === 'https:' ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
  const startedAt = new Date();
  const t0 = performance.now();
  const forwardOptions = {
    upstream,
    agent,
    timeoutMs,
    captureBytes,
    hold: options.errors === true,
    judge: (captured: Parameters<TrafficJudge['judge']>[0]) => judge.judge(captured),
  };

  const result = (): ConformanceResult =>
    proxyResult({
      upstreamUrl: upstream.baseUrl,
      startedAt: startedAt.toISOString(),
      durationMs: performance.now() - t0,
      findings: log.all(),
      totalFindings: log.total,
      exchanges: judge.exchanges,
      statuses: judge.statuses,
      reading: judge.tracker.reading,
      unjudgedBodies: judge.unjudgedBodies,
    });

  /** The proxy's own paths, under `/__proxy/`; never forwarded. */
  const control = (req: IncomingMessage, res: ServerResponse): void => {
    const url = new URL(req.url ?? '/', 'http://proxy.invalid');
    if (req.method === 'GET' && url.pathname === '/__proxy/findings') {
      const since = Number(url.searchParams.get('since') ?? 0) || 0;
      const all = log.all();
      const body = JSON.stringify({
        tool: 'petstore proxy',
        upstream: upstream.baseUrl,
        exchanges: judge.exchanges,
        summary: {
          failures: all.filter((f) => f.party === 'server' && f.level === 'failure').length,
          warnings: all.filter((f) => f.party === 'server' && f.level === 'warning').length,
          client: all.filter((f) => f.party === 'client').length,
          total: log.total,
        },
        findings: all.filter((f) => f.seq > since),
      });
      res.writeHead(200, {
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
        'cache-control': 'no-store',
        [PROXY_HEADER]: 'findings',
      });
      res.end(body);
      return;
    }
    const own = proxyError('notFound', 'the proxy serves only GET /__proxy/findings under /__proxy/');
    res.writeHead(own.status, own.headers);
    res.end(own.body);
  };

  const server: Server = createServer({ keepAliveTimeout: 5_000 }, (req, res) => {
    if (req.url?.startsWith('/__proxy/')) control(req, res);
    else forward(req, res, forwardOptions);
  });
  // A client that sends something node cannot parse gets an Error body, never a bare reset.
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const own = proxyError('badRequest', 'the request is not valid HTTP, so it was not forwarded');
    const head = Object.entries({ ...own.headers, connection: 'close' })
      .map(([name, value]) => `${name}: ${value}`)
      .join('\r\n');
    socket.end(`HTTP/1.1 400 Bad Request\r\n${head}\r\n\r\n${own.body}`);
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
        agent.destroy();
        const final = options.bodies === false ? withoutBodies(result()) : result();
        const written: string[] = [];
        if (reporters.length > 0) {
          ensureDirectory(outputDir);
          for (const name of reporters) {
            const path = join(outputDir, REPORT_FILES[name]);
            writeFileSync(path, RENDER[name](final));
            written.push(path);
          }
        }
        return { result: final, written };
      })();
      return closed;
    },
  };
}
