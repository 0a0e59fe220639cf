/** The core plus what every entry point shares: keys, body limit, delay, request log. No Node built-in (MSW bundles it). */
import { type Contract, defaultContract } from '../contract/index.js';
import { fail, ok, type Result } from '../result.js';
import { apiKeyProblem } from './auth.js';
import { type Core, createCore } from './core.js';
import { mockError } from './errors.js';
import { DEV_API_KEY, type FixtureSet } from './fixtures.js';
import type { Inspector } from './inspector.js';
import { type CoreRequest, fromHeaders } from './request.js';
import { type CoreResponse, errorResponse, MAX_BODY_BYTES, payloadTooLarge } from './responses.js';
import { DEFAULT_LIMITS, type SessionLimits } from './sessions.js';

export interface EngineOptions {
  /** The contract to serve; default the toolkit's own (`spec/openapi.yaml`). */
  contract?: Contract;
  /** Accepted keys; they override the fixtures' keys. */
  apiKeys?: readonly string[];
  /** Milliseconds added before every answer (spinner testing). */
  delayMs?: number;
  /** Origins allowed besides the local ones (D14), as `--cors-origin` takes them; `['*']` for any. */
  corsOrigins?: readonly string[];
  log?: (line: string) => void;
  /** Caps on named sessions and on each session's request log. */
  limits?: Partial<SessionLimits>;
  /** Where a bug in the mock is reported (the answer is then a 500 Error); default `console.error`. */
  onBug?: (message: string) => void;
  /** The inspector at `/__mock/` (`petstore-contract-toolkit/msw/inspector`): a page opts in to its 12 kB. */
  inspector?: Inspector;
}

/** An adapter's body reader: up to `limit` bytes, `too-large` once more come, `aborted` if the peer left. */
export type ReadBody = (limit: number) => Promise<Result<Uint8Array | undefined, 'too-large' | 'aborted'>>;

export interface MockEngine {
  /** Body limit, core, delay, log; a promise only for a body or a delay; `undefined` if the peer left. */
  answer(request: CoreRequest, readBody?: ReadBody): CoreResponse | Promise<CoreResponse | undefined>;
  /** Waits out an answer's delay (a promise only then) and logs it; for an adapter's own answers too. */
  settle(
    request: CoreRequest,
    response: CoreResponse,
    startedAt: number,
    t0: number,
  ): CoreResponse | Promise<CoreResponse>;
  /** The answer its head alone decides (a body declared too large, no valid key), before `100 Continue`. */
  refusal(request: CoreRequest): CoreResponse | undefined;
  /** Answers a WHATWG request (`target`: path and query below a mount); a drop (D18): `Response.error()`. */
  handle(request: Request, target?: string): Promise<Response>;
  /** Puts every session back to the fixtures and the delay back to the `delayMs` option. */
  reset(): void;
  /** Ends every pending delay at once, so a stopping mock stops at once. */
  releaseDelayed(): void;
  /** Replaces the fixtures and resets every session; the keys follow unless the options fixed them. */
  reload(fixtures: FixtureSet): void;
  readonly core: Core;
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

/** What `fetch` throws for a network error: the in-process simulated drop (D18). */
export function droppedConnection(): TypeError {
  return new TypeError('fetch failed', { cause: new Error('simulated dropped connection (D18)') });
}

function webBody(body: ReadableStream<Uint8Array>): ReadBody {
  return async (limit) => {
    const reader = body.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      size += read.value.byteLength;
      if (size > limit) {
        void reader.cancel().catch(() => {});
        return fail('too-large');
      }
      chunks.push(read.value);
    }
    // Not `new Blob(chunks)`: MSW tests often run under jsdom, whose Blob long lacked arrayBuffer().
    const bytes = new Uint8Array(size);
    let at = 0;
    for (const chunk of chunks) {
      bytes.set(chunk, at);
      at += chunk.byteLength;
    }
    return ok(bytes);
  };
}

/** Builds the engine over checked fixtures; throws when an explicit key can never be sent as a token. */
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

  // A bug in the core is a 500 Error, not a dropped connection or a rejected promise.
  const respondSafely = (request: CoreRequest): CoreResponse => {
    try {
      return core.respond(request);
    } catch (error) {
      onBug(
        `petstore mock: bug while answering ${request.method} ${request.url.slice(0, 200)}: ${String(error)}`,
      );
      return errorResponse(
        mockError('internalError'),
        undefined,
        core.cors.headers(request.header('origin')),
      );
    }
  };

  // The declared length is trusted for a refusal only, never for the bytes read.
  const declaredTooLarge = (request: CoreRequest): CoreResponse | undefined => {
    const declared = request.header('content-length');
    if (declared === undefined || Number(declared) <= MAX_BODY_BYTES) return undefined;
    return payloadTooLarge(core.cors.headers(request.header('origin')));
  };

  // The delayed answers waiting now, so that a stopped mock answers them at once (SIGTERM).
  const delayed = new Set<() => void>();

  const record = (request: CoreRequest, response: CoreResponse, startedAt: number, t0: number) => {
    const durationMs = performance.now() - t0;
    const { session, status, code } = response;
    session?.log.add(startedAt, request.method, request.url, status, durationMs, code);
    log?.(logLine(request, response, durationMs));
    return response;
  };

  const engine: MockEngine = {
    core,
    releaseDelayed() {
      for (const release of [...delayed]) release();
    },
    get apiKeys() {
      return core.apiKeys;
    },
    get fixtures() {
      return core.sessions.fixtures;
    },
    settle(request, response, startedAt, t0) {
      const wait = response.delayMs ?? 0;
      if (wait <= 0) return record(request, response, startedAt, t0);
      return new Promise((resolve) => {
        const release = () => {
          clearTimeout(timer);
          delayed.delete(release);
          resolve(record(request, response, startedAt, t0));
        };
        const timer = setTimeout(release, wait);
        delayed.add(release);
      });
    },
    refusal(request) {
      return declaredTooLarge(request) ?? core.refusal(request);
    },
    answer(request, readBody) {
      const startedAt = Date.now();
      const t0 = performance.now();
      const refused = declaredTooLarge(request);
      if (refused !== undefined || readBody === undefined) {
        return engine.settle(request, refused ?? respondSafely(request), startedAt, t0);
      }
      return readBody(MAX_BODY_BYTES).then((body) => {
        if (!body.ok && body.error === 'aborted') return undefined;
        const response = body.ok
          ? respondSafely({ ...request, body: body.value })
          : payloadTooLarge(core.cors.headers(request.header('origin')));
        return engine.settle(request, response, startedAt, t0);
      });
    },
    async handle(request, target) {
      const url = target === undefined ? new URL(request.url) : undefined;
      const head = fromHeaders(
        request.method,
        target ?? `${url?.pathname}${url?.search}`,
        request.headers,
        undefined,
      );
      const response = await engine.answer(head, request.body === null ? undefined : webBody(request.body));
      if (response === undefined || response.drop) return Response.error();
      return new Response(response.body ?? null, { status: response.status, headers: response.headers });
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
