/**
 * The stateful mock server of the Pet Store Orders API, as a library: create it from fixtures, answer a
 * WHATWG `Request` in-process, or listen on a port.
 *
 * @example
 * const mock = await createMock({ fixtures: 'fixtures/default.yaml' });
 * const { baseUrl } = await mock.listen({ port: 0 });
 * await fetch(`${baseUrl}/store/orders`, { headers: { authorization: `Bearer ${mock.apiKeys[0]}` } });
 * await mock.close();
 */
import type { IncomingHttpHeaders, Server } from 'node:http';
import { apiKeyProblem } from './auth.js';
import { type Core, type CoreRequest, createCore, MAX_BODY_BYTES } from './core.js';
import { ok, type Result } from './errors.js';
import {
  DEV_API_KEY,
  type FixtureData,
  type FixtureError,
  type FixtureSet,
  loadFixtures,
} from './fixtures.js';
import { type CoreResponse, payloadTooLarge } from './responses.js';
import { createHttpServer, respondSafely } from './server.js';
import { DEFAULT_LIMITS, type SessionLimits } from './sessions.js';

export { API_BASE } from './core.js';
export { MOCK_ERRORS } from './errors.js';
export {
  DEFAULT_FIXTURES_PATH,
  DEV_API_KEY,
  type FixtureData,
  FixtureError,
  type FixtureOrder,
} from './fixtures.js';

export interface MockOptions {
  /** A YAML/JSON fixture file, or fixture data; default `fixtures/default.yaml`. */
  fixtures?: string | FixtureData;
  /** Accepted keys; they override the fixture file's keys. */
  apiKeys?: string[];
  /** Milliseconds added before every answer (spinner testing). */
  delayMs?: number;
  /** Receives one line per request; omit it for silence. */
  log?: (line: string) => void;
  /** Caps on named sessions and on each session's request log. */
  limits?: Partial<SessionLimits>;
}

export interface ListenInfo {
  /** `http://127.0.0.1:4010` */
  url: string;
  /** `http://127.0.0.1:4010/v1` */
  baseUrl: string;
  port: number;
}

export interface Mock {
  /** Answers one request without a socket. */
  handle(request: Request): Promise<Response>;
  /** Listens on a port (`0` picks a free one); rejects with the socket error, e.g. EADDRINUSE. */
  listen(options?: { port?: number; host?: string }): Promise<ListenInfo>;
  /** Puts every session back to the fixtures. */
  reset(): void;
  /** Replaces the fixtures (`--watch`); a bad file leaves everything as it was. */
  reload(fixtures: string | FixtureData): Result<FixtureSet, FixtureError>;
  close(): Promise<void>;
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

function connectableHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}

/**
 * Creates a mock. Rejects with a {@link FixtureError} when the fixtures are unusable.
 *
 * @example const mock = await createMock({ fixtures: { orders: [{ id: 1, status: 'pending' }] }, apiKeys: ['k'] });
 */
export async function createMock(options: MockOptions = {}): Promise<Mock> {
  const loaded = loadFixtures(options.fixtures);
  if (!loaded.ok) throw loaded.error;
  for (const key of options.apiKeys ?? []) {
    const problem = apiKeyProblem(key, 'API key');
    if (problem) throw new Error(problem);
  }
  const core: Core = createCore({
    fixtures: loaded.value,
    apiKeys: chooseKeys(options.apiKeys, loaded.value),
    limits: { ...DEFAULT_LIMITS, ...options.limits },
  });
  const delayMs = options.delayMs ?? 0;
  const log = options.log;
  const observe = (request: CoreRequest, response: CoreResponse, startedAt: number, durationMs: number) => {
    response.session?.log.add(startedAt, request.method, request.url, response.status, durationMs);
    if (log) log(logLine(request, response, durationMs));
  };
  let server: Server | undefined;

  const mock: Mock = {
    get apiKeys() {
      return core.apiKeys;
    },
    get fixtures() {
      return core.sessions.fixtures;
    },
    async handle(request) {
      const startedAt = Date.now();
      const t0 = performance.now();
      const url = new URL(request.url);
      const headers: IncomingHttpHeaders = {};
      request.headers.forEach((value, name) => {
        headers[name] = value;
      });
      const coreRequest: CoreRequest = {
        method: request.method,
        url: url.pathname + url.search,
        headers,
        body: undefined,
      };
      let response: CoreResponse;
      const bytes = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
      if (bytes && bytes.length > MAX_BODY_BYTES) {
        response = payloadTooLarge();
      } else {
        coreRequest.body = bytes;
        response = respondSafely(core, coreRequest);
      }
      if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
      observe(coreRequest, response, startedAt, performance.now() - t0);
      const { body } = response;
      // One view of the bytes, no copy: the cached list Buffer is never written to.
      const payload =
        typeof body === 'string' ? body : body && new Uint8Array(body.buffer, body.byteOffset, body.length);
      return new Response(payload ?? null, {
        status: response.status,
        headers: response.headers,
      });
    },
    listen({ port = 4010, host = '127.0.0.1' } = {}) {
      if (server) return Promise.reject(new Error('the mock is already listening; close() it first'));
      const created = createHttpServer(core, { delayMs, observe });
      server = created;
      return new Promise<ListenInfo>((resolve, reject) => {
        const onError = (error: Error) => {
          server = undefined;
          reject(error);
        };
        created.once('error', onError);
        created.listen(port, host, () => {
          created.off('error', onError);
          const address = created.address();
          const actual = typeof address === 'object' && address ? address.port : port;
          const url = `http://${connectableHost(host)}:${actual}`;
          resolve({ url, baseUrl: `${url}/v1`, port: actual });
        });
      });
    },
    reset() {
      core.sessions.resetAll();
    },
    reload(source) {
      const next = loadFixtures(source);
      if (!next.ok) return next;
      core.reload(next.value, chooseKeys(options.apiKeys, next.value));
      return ok(next.value);
    },
    close() {
      const current = server;
      server = undefined;
      if (!current) return Promise.resolve();
      return new Promise<void>((resolve) => {
        current.close(() => resolve());
        current.closeAllConnections();
      });
    },
  };
  return mock;
}
