/**
 * The mock as a web-standard request handler: the core plus what every entry point shares (keys chosen
 * from the options or the fixtures, the delay, the request log and the per-request log line), answering
 * a WHATWG `Request` with a `Response`. `createMock` (Node) adds a port to it; the MSW handlers put it in
 * a page or a test. No Node built-in, so it bundles for a browser.
 */
import { fail, ok, type Result } from '../result.js';
import { apiKeyProblem } from './auth.js';
import { type Core, createCore, respondSafely } from './core.js';
import type { Cors } from './cors.js';
import { DEV_API_KEY, type FixtureSet } from './fixtures.js';
import { type CoreRequest, fromHeaders } from './request.js';
import { type CoreResponse, MAX_BODY_BYTES, payloadTooLarge } from './responses.js';
import { DEFAULT_LIMITS, type SessionLimits } from './sessions.js';

export interface EngineOptions {
  /** Accepted keys; they override the fixtures' keys. */
  apiKeys?: readonly string[];
  /** Milliseconds added before every answer (spinner testing). */
  delayMs?: number;
  /** Receives one line per request; omit it for silence. */
  log?: (line: string) => void;
  /** Caps on named sessions and on each session's request log. */
  limits?: Partial<SessionLimits>;
  /** Where a bug in the mock is reported (the answer is then a 500 Error); default `console.error`. */
  onBug?: (message: string) => void;
  /**
   * Origins whose pages may use the mock besides the local ones (D14): `['https://app.test']`, or
   * `['*']` for any. Values as `--cors-origin` takes them.
   */
  corsOrigins?: readonly string[];
}

export interface MockEngine {
  /**
   * Answers one request without a socket. `target` overrides the path and query read from
   * `request.url` (a handler mounted under a prefix passes what follows the prefix). A simulated dropped
   * connection (D18) is `Response.error()`, the web platform's network error.
   */
  handle(request: Request, target?: string): Promise<Response>;
  /** Records an answered request: the session's request log and the log line. */
  observe(request: CoreRequest, response: CoreResponse, startedAt: number, durationMs: number): void;
  /** Puts every session back to the fixtures and the delay back to the `delayMs` option. */
  reset(): void;
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
 * Reads a request's body up to the mock's limit; `undefined` when it has none, an error when too large.
 * The declared length is trusted for the refusal only, never for the bytes read.
 */
async function readBody(request: Request, cors: Cors): Promise<Result<Uint8Array | undefined, CoreResponse>> {
  if (request.body === null) return ok(undefined);
  const declared = request.headers.get('content-length');
  const tooLarge = () => fail(payloadTooLarge(cors.headers(request.headers.get('origin') ?? undefined)));
  if (declared !== null && !(Number(declared) <= MAX_BODY_BYTES)) return tooLarge();
  // Chunk by chunk, and no further than the limit: a streamed body of any size costs at most the limit.
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      void reader.cancel().catch(() => {});
      return tooLarge();
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
    fixtures,
    apiKeys: chooseKeys(options.apiKeys, fixtures),
    limits: { ...DEFAULT_LIMITS, ...options.limits },
    delayMs: options.delayMs ?? 0,
    ...(options.corsOrigins ? { corsOrigins: options.corsOrigins } : {}),
  });
  const log = options.log;
  const onBug = options.onBug ?? ((message: string) => console.error(message));

  const engine: MockEngine = {
    core,
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
    observe(request, response, startedAt, durationMs) {
      const { session, status, code } = response;
      session?.log.add(startedAt, request.method, request.url, status, durationMs, code);
      if (log) log(logLine(request, response, durationMs));
    },
    async handle(request, target) {
      const startedAt = Date.now();
      const t0 = performance.now();
      const url = target === undefined ? new URL(request.url) : undefined;
      const body = await readBody(request, core.cors);
      const coreRequest = fromHeaders(
        request.method,
        url ? url.pathname + url.search : (target as string),
        request.headers,
        body.ok ? body.value : undefined,
      );
      const response = body.ok ? respondSafely(core, coreRequest, onBug) : body.error;
      const wait = response.delayMs ?? 0;
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      engine.observe(coreRequest, response, startedAt, performance.now() - t0);
      // A simulated dropped connection (D18) is the web platform's network error; MSW hands it to fetch,
      // which rejects, and createMock's handle rejects the same way.
      return response.drop ? Response.error() : toResponse(response);
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
