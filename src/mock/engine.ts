/**
 * The mock as a web-standard request handler: the core plus what every entry point shares, each once
 * (keys chosen from the options or the fixtures, the body limit, the delay, the request log and the
 * per-request log line). {@link MockEngine.answer} is the one path every adapter takes: `handle` answers
 * a WHATWG `Request` with it (in-process, MSW), the socket adapter (server.ts) a node request. No Node
 * built-in, so it bundles for a browser.
 */
import { type Contract, defaultContract } from '../contract/index.js';
import { fail, ok, type Result } from '../result.js';
import { apiKeyProblem } from './auth.js';
import { type Core, createCore, respondSafely } from './core.js';
import { DEV_API_KEY, type FixtureSet } from './fixtures.js';
import type { Inspector } from './inspector.js';
import { type CoreRequest, fromHeaders } from './request.js';
import { type CoreResponse, MAX_BODY_BYTES, payloadTooLarge } from './responses.js';
import { DEFAULT_LIMITS, type SessionLimits } from './sessions.js';

export interface EngineOptions {
  /** The contract to serve; default the toolkit's own (`spec/openapi.yaml`). */
  contract?: Contract;
  /** Accepted keys; they override the fixtures' keys. */
  apiKeys?: readonly string[];
  /** Milliseconds added before every answer (spinner testing). */
  delayMs?: number;
  /**
   * Origins whose pages may use the mock besides the local ones (D14): `['https://app.test']`, or
   * `['*']` for any. Values as `--cors-origin` takes them.
   */
  corsOrigins?: readonly string[];
  /** Receives one line per request; omit it for silence. */
  log?: (line: string) => void;
  /** Caps on named sessions and on each session's request log. */
  limits?: Partial<SessionLimits>;
  /** Where a bug in the mock is reported (the answer is then a 500 Error); default `console.error`. */
  onBug?: (message: string) => void;
  /**
   * The state inspector served at `/__mock/`: `import { inspector } from 'petstore-contract-toolkit/msw/inspector'`.
   * The mock on a port always serves it; MSW handlers only when given it, so a page that does not ask
   * for it does not load its 12 kB. Without it, `/__mock/` is a 404 that names this import.
   */
  inspector?: Inspector;
}

/**
 * How an adapter hands over a request's body: up to `limit` bytes (`undefined` when there is none),
 * `too-large` as soon as more arrive (the rest stays unread), `aborted` when the peer went away.
 */
export type ReadBody = (limit: number) => Promise<Result<Uint8Array | undefined, 'too-large' | 'aborted'>>;

export interface MockEngine {
  /**
   * Answers a request whose head has arrived: the body limit, the core, the delay, then the request log.
   * `readBody` is omitted for a request without a body; such a request is answered at once, without a
   * turn of the event loop, unless a delay applies (the socket adapter answers most requests this way).
   * `undefined` when the peer went away while its body was read.
   */
  answer(request: CoreRequest, readBody?: ReadBody): CoreResponse | Promise<CoreResponse | undefined>;
  /** Waits out an answer's delay and records it; for answers an adapter decides itself (a 400, 417). */
  settle(request: CoreRequest, response: CoreResponse, startedAt: number, t0: number): Promise<CoreResponse>;
  /**
   * The answer a request gets whatever its body, when its head alone decides it (a declared body over
   * the limit, a missing or wrong key); `undefined` when the body may matter. The socket adapter asks
   * before it sends `100 Continue`.
   */
  refusal(request: CoreRequest): CoreResponse | undefined;
  /**
   * Answers one request without a socket. `target` overrides the path and query read from
   * `request.url` (a handler mounted under a prefix passes what follows the prefix). A simulated dropped
   * connection (D18) is `Response.error()`, the web platform's network error.
   */
  handle(request: Request, target?: string): Promise<Response>;
  /** Puts every session back to the fixtures and the delay back to the `delayMs` option. */
  reset(): void;
  /** Ends every pending delay at once, so a stopping mock does not live on until the longest has passed. */
  releaseDelayed(): void;
  /** Replaces the fixtures and resets every session to them; the keys follow unless the options fixed them. */
  reload(fixtures: FixtureSet): void;
  readonly core: Core;
  /** The global delay now (`PUT /__mock/delay` changes it). */
  readonly delayMs: number;
  readonly onBug: (message: string) => void;
  readonly apiKeys: readonly string[];
  readonly fixtures: FixtureSet;
}

function chooseKeys(explicit: readonly string[] | undefined, fixtures: FixtureSet): readonly string[] {
  if (explicit && explicit.length > 0) return explicit;
  return fixtures.apiKeys.length > 0 ? fixtures.apiKeys : [DEV_API_KEY];
}

function logLine(request: CoreRequest, response: CoreResponse, durationMs: number): string {
  const session =
    response.session && response.session.name !== 'default' ? ` [${response.session.name}]` : '';
  const url = request.url.length > 200 ? `${request.url.slice(0, 197)}...` : request.url;
  return `${request.method} ${url} ${response.status} ${durationMs.toFixed(1)}ms${session}`;
}

/** The `Response` of a core answer. The body is copied by `Response`, so cached bytes stay untouched. */
function toResponse(response: CoreResponse): Response {
  return new Response(response.body ?? null, { status: response.status, headers: response.headers });
}

/**
 * What `fetch` throws for a network error, here for a simulated dropped connection (D18): `handle` of an
 * in-process mock rejects with it where MSW gives fetch `Response.error()`.
 *
 * @example if (response.type === 'error') throw droppedConnection();
 */
export function droppedConnection(): TypeError {
  return new TypeError('fetch failed', { cause: new Error('simulated dropped connection (D18)') });
}

/**
 * A WHATWG request's body, read chunk by chunk and no further than the limit: a streamed body of any size
 * costs at most the limit (MSW and `handle` get bodies a page or a test streams).
 */
function webBody(request: Request): ReadBody {
  return async (limit) => {
    if (request.body === null) return ok(undefined);
    const reader = request.body.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        void reader.cancel().catch(() => {});
        return fail('too-large');
      }
      chunks.push(value);
    }
    const bytes = new Uint8Array(size);
    let at = 0;
    for (const chunk of chunks) {
      bytes.set(chunk, at);
      at += chunk.byteLength;
    }
    return ok(bytes);
  };
}

/** A request's head with the body that was read. */
function withBody(request: CoreRequest, body: Uint8Array | undefined): CoreRequest {
  return { method: request.method, url: request.url, header: (name) => request.header(name), body };
}

/**
 * Builds the engine over checked fixtures. Throws when an explicit key can never be sent as a token.
 *
 * @example const engine = createEngine(fixtures, { apiKeys: ['k'] }); await engine.handle(new Request('http://mock/v1/store/orders'))
 */
export function createEngine(fixtures: FixtureSet, options: EngineOptions = {}): MockEngine {
  for (const key of options.apiKeys ?? []) {
    const problem = apiKeyProblem(key, 'API key');
    if (problem) throw new Error(problem);
  }
  const core = createCore({
    contract: options.contract ?? defaultContract(),
    fixtures,
    apiKeys: chooseKeys(options.apiKeys, fixtures),
    limits: { ...DEFAULT_LIMITS, ...options.limits },
    delayMs: options.delayMs ?? 0,
    ...(options.corsOrigins ? { corsOrigins: options.corsOrigins } : {}),
    inspector: options.inspector,
  });
  const log = options.log;
  const onBug = options.onBug ?? ((message: string) => console.error(message));

  /** The declared length is trusted for a refusal only, never for the bytes read. */
  const declaredTooLarge = (request: CoreRequest): CoreResponse | undefined => {
    const declared = request.header('content-length');
    if (declared === undefined || Number(declared) <= MAX_BODY_BYTES) return undefined;
    return payloadTooLarge(core.cors.headers(request.header('origin')));
  };

  // The delayed answers waiting now: a stopped mock answers them at once instead of living on until the
  // longest delay has passed (SIGTERM ends `petstore mock` at once).
  const delayed = new Set<() => void>();

  /** The session's request log and the log line of an answer. */
  const record = (request: CoreRequest, response: CoreResponse, startedAt: number, t0: number) => {
    const durationMs = performance.now() - t0;
    response.session?.log.add(
      startedAt,
      request.method,
      request.url,
      response.status,
      durationMs,
      response.code,
    );
    if (log) log(logLine(request, response, durationMs));
    return response;
  };

  const engine: MockEngine = {
    core,
    releaseDelayed() {
      for (const release of [...delayed]) release();
    },
    get delayMs() {
      return core.delayMs;
    },
    onBug,
    get apiKeys() {
      return core.apiKeys;
    },
    get fixtures() {
      return core.sessions.fixtures;
    },
    async settle(request, response, startedAt, t0) {
      const wait = response.delayMs ?? 0;
      if (wait > 0) {
        await new Promise<void>((resolve) => {
          const release = () => {
            clearTimeout(timer);
            delayed.delete(release);
            resolve();
          };
          const timer = setTimeout(release, wait);
          delayed.add(release);
        });
      }
      return record(request, response, startedAt, t0);
    },
    refusal(request) {
      return declaredTooLarge(request) ?? core.refusal(request);
    },
    answer(request, readBody) {
      const startedAt = Date.now();
      const t0 = performance.now();
      const refused = declaredTooLarge(request);
      if (refused !== undefined || readBody === undefined) {
        const response = refused ?? respondSafely(core, request, onBug);
        return (response.delayMs ?? 0) > 0
          ? engine.settle(request, response, startedAt, t0)
          : record(request, response, startedAt, t0);
      }
      return readBody(MAX_BODY_BYTES).then((body) => {
        if (!body.ok && body.error === 'aborted') return undefined;
        const response = body.ok
          ? respondSafely(core, withBody(request, body.value), onBug)
          : payloadTooLarge(core.cors.headers(request.header('origin')));
        return engine.settle(request, response, startedAt, t0);
      });
    },
    async handle(request, target) {
      const url = target === undefined ? new URL(request.url) : undefined;
      const head = fromHeaders(
        request.method,
        url ? url.pathname + url.search : (target as string),
        request.headers,
        undefined,
      );
      const response = await engine.answer(head, request.body === null ? undefined : webBody(request));
      // A simulated dropped connection (D18) is the web platform's network error; MSW hands it to fetch,
      // which rejects, and createMock's handle rejects the same way.
      return response === undefined || response.drop ? Response.error() : toResponse(response);
    },
    reset() {
      core.sessions.resetAll();
      core.delayMs = options.delayMs ?? 0;
    },
    reload(next) {
      core.reload(next, chooseKeys(options.apiKeys, next));
    },
  };
  return engine;
}
