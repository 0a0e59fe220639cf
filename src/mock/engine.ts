// The mock, request in, response out: body limit, route, key, parameters, answer, delay, log.
// No Node built-in: MSW bundles it.
import { documentedResponseHeaders } from '../contract/document-schemas.js';
import {
  type Contract,
  defaultContract,
  type ExactJson,
  type OperationSpec,
  type ParameterSpec,
  type RawParameter,
  type SchemaViolation,
} from '../contract/index.js';
import { isObject, type JsonObject } from '../contract/refs.js';
import { fail, ok, type Result } from '../result.js';
import { createAuthenticator } from './auth.js';
import { CONTROL_BASE, CONTROL_OPERATIONS, type ControlName, handleControl } from './control.js';
import { compileCors } from './cors.js';
import { clip, type MockErrorName, mockError } from './errors.js';
import { readFaultSettings } from './faults.js';
import { DEV_API_KEY, type FixtureSet } from './fixtures.js';
import type { Inspector } from './inspector.js';
import { compilePrefer, type ForcedResponse, parsePrefer } from './prefer.js';
import { requestPath } from './request-target.js';
import { type CoreRequest, type CoreResponse, errorResponse, jsonResponse } from './responses.js';
import { compileRouter, decodeLoosely } from './router.js';
import { DEFAULT_LIMITS, MAX_SESSION_NAME, type Session, type SessionLimits, Sessions } from './sessions.js';

type Target = { kind: 'api'; operation: OperationSpec } | { kind: 'control'; name: ControlName };

type ApiHandler = (
  session: Session,
  params: ReadonlyMap<string, ExactJson>,
  fixtures: FixtureSet,
  documented: ReadonlyMap<number, Readonly<Record<string, string>>> | undefined,
) => CoreResponse;

/** Whether a path is under `/__mock`, however it is escaped: `isControlTarget('/%5F_mock/state')` is true. */
export function isControlTarget(pathname: string): boolean {
  const path = decodeLoosely(pathname);
  return path === CONTROL_BASE || path.startsWith(`${CONTROL_BASE}/`);
}

/** What each operation does; every operation of the document must have one (checked at start). */
export const API_HANDLERS: Readonly<Record<string, ApiHandler>> = {
  listOrders: (session, _params, _fixtures, documented) => {
    // The one header whose meaning the handler knows, sent where the document declares it (issue 22).
    const total =
      documented?.get(200)?.['x-total-count'] !== undefined
        ? { 'x-total-count': String(session.orders.listedCount()) }
        : undefined;
    return jsonResponse(200, session.orders.listBody(), session, total);
  },
  cancelOrder: (session, params) => {
    const outcome = session.orders.apply(params.get('orderId') as bigint, 'cancelOrder');
    return outcome.ok
      ? jsonResponse(outcome.value.status, undefined, session)
      : errorResponse(outcome.error, session);
  },
  getPet: (session, params, fixtures) => {
    const id = params.get('petId') as bigint;
    const pet = fixtures.pets.get(id);
    return pet
      ? jsonResponse(200, pet.body, session)
      : errorResponse(mockError('petNotFound', { id }), session);
  },
};

function exampleOf(header: JsonObject, schema: JsonObject): string {
  const examples = isObject(header.examples) ? Object.values(header.examples) : [];
  const named = examples[0] as { value?: unknown } | undefined;
  const listed = Array.isArray(schema.examples) ? schema.examples[0] : undefined;
  const value = header.example ?? named?.value ?? schema.example ?? listed ?? schema.default;
  if (value !== undefined) return String(value);
  if (Array.isArray(schema.enum)) return String(schema.enum[0]);
  return schema.type === 'integer' || schema.type === 'number' ? String(schema.minimum ?? 0) : '';
}

/** Bodies the mock reads at most; the API takes none, control bodies are small. */
const MAX_BODY_BYTES = 64 * 1024;
const TOO_LARGE = mockError('payloadTooLarge', {
  message: `The request body is larger than ${MAX_BODY_BYTES} bytes.`,
});

/** A malformed id in the path names no resource (D9). */
const MALFORMED_ID: Readonly<Record<string, MockErrorName>> = {
  orderId: 'orderNotFound',
  petId: 'petNotFound',
};

/** The Error for a declared parameter that breaks its schema: D9's 404 for an id, else D21's 400. */
function parameterError(param: ParameterSpec, errors: readonly SchemaViolation[], raw?: RawParameter) {
  const text = raw === undefined ? '' : typeof raw === 'string' ? raw : raw.join(',');
  const malformedId = param.in === 'path' ? MALFORMED_ID[param.name] : undefined;
  if (malformedId) return mockError(malformedId, { id: text });
  const problem = errors[0]?.message ?? 'is invalid';
  const got = raw === undefined || problem.includes('got ') ? '' : `, got ${JSON.stringify(clip(text, 40))}`;
  return mockError('invalidParameter', {
    message: `The ${param.in} parameter ${clip(param.name, 40)} ${problem}${got}.`,
  });
}

function forcedResponse({ status, body, headers, code }: ForcedResponse, session: Session): CoreResponse {
  return { ...jsonResponse(status, body, session, headers), code };
}

/** Why the mock cannot serve a contract (a path under `/__mock`, an operation without a handler); else `undefined`. */
export function unservedOperation(contract: Contract): string | undefined {
  const overlap = contract.operations.find((op) => isControlTarget(contract.basePath + op.path));
  if (overlap) {
    return `the document's path ${contract.basePath}${overlap.path} is under ${CONTROL_BASE}, where the mock's control endpoints are; serve the API under another path (its local servers entry)`;
  }
  const missing = contract.operations.find((operation) => !API_HANDLERS[operation.operationId]);
  return (
    missing &&
    `the mock has no handler for operation ${missing.operationId} (it serves ${Object.keys(API_HANDLERS).join(', ')})`
  );
}

const NO_INSPECTOR = mockError('notFound', {
  message:
    "No state inspector: pass createHandlers({ inspector }), with inspector from 'petstore-contract-toolkit/msw/inspector'.",
});

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

export type MockEngine = ReturnType<typeof createEngine>;

const chooseKeys = (explicit: readonly string[] | undefined, fixtures: FixtureSet): readonly string[] =>
  explicit?.length ? explicit : fixtures.apiKeys.length > 0 ? fixtures.apiKeys : [DEV_API_KEY];

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
    // An exact-size copy, not a buffer of `limit` per request. Not `new Blob(chunks)`: jsdom's Blob lacked arrayBuffer().
    const bytes = new Uint8Array(size);
    size = 0;
    for (const chunk of chunks) {
      bytes.set(chunk, size);
      size += chunk.byteLength;
    }
    return ok(bytes);
  };
}

/** Builds the engine; throws on a contract it cannot serve, missing `x-petstore-*` settings or a bad key. */
export function createEngine(fixtures: FixtureSet, options: EngineOptions = {}) {
  const contract = options.contract ?? defaultContract();
  const unserved = unservedOperation(contract);
  if (unserved) throw new Error(unserved);
  const cors = compileCors(contract.document, options.corsOrigins);
  const faultSettings = readFaultSettings(contract.document);
  // The 404 for a path the contract does not route says where the API lives (D10, D12).
  const current = contract.operations.filter((op) => !op.deprecated);
  const examples = current.map((op) => `${op.method.toUpperCase()} ${contract.basePath}${op.path}`);
  const notFound = mockError('notFound', {
    message: `No such path. The API lives under ${contract.basePath || '/'}: ${examples.join(', ')}.`,
  });
  const route = compileRouter<Target>([
    ...contract.operations.map((operation) => ({
      method: operation.method.toUpperCase(),
      path: contract.basePath + operation.path,
      target: { kind: 'api', operation } as const,
    })),
    ...Object.entries(CONTROL_OPERATIONS).map(([name, { method, path }]) => ({
      method,
      path: CONTROL_BASE + path,
      target: { kind: 'control', name: name as ControlName } as const,
    })),
  ]);
  const forcer = compilePrefer(contract.operations, faultSettings);
  const sessions = new Sessions(fixtures, { ...DEFAULT_LIMITS, ...options.limits });
  let apiKeys = chooseKeys(options.apiKeys, fixtures);
  let authenticate = createAuthenticator(apiKeys);
  // Each documented response header's example (issue 22), by operation and the statuses that declare any.
  const documented = documentedResponseHeaders(contract.document);
  const headersOf = new Map(
    contract.operations.map((op) => {
      const declared = [...(documented.get(op.operationId) ?? [])].filter(([, list]) => list.length);
      const examples = declared.map(([status, list]) => {
        const named = list.map((h) => [h.shownAs.toLowerCase(), exampleOf(h.header, h.schema)] as const);
        return [status, Object.fromEntries(named)] as const;
      });
      return [op, new Map(examples)];
    }),
  );
  const { log, onBug = (message: string) => console.error(message) } = options;
  // The delayed answers waiting now, so that a stopped mock answers them at once (SIGTERM).
  const delayed = new Set<() => void>();

  /** The documented headers (issue 22) under the handler's own, and a deprecated operation's dates (D11). */
  const withHeaders = (operation: OperationSpec, response: CoreResponse): CoreResponse => {
    if (operation.deprecated) {
      const { deprecationHeader, sunsetHeader } = sessions.fixtures;
      Object.assign(response.headers, { deprecation: deprecationHeader, sunset: sunsetHeader });
    }
    // Most answers (401, 404, 409) declare no header: no copy for them on the hot path.
    const documented = headersOf.get(operation)?.get(response.status);
    if (documented) response.headers = { ...documented, ...response.headers };
    return response;
  };

  /** A planned fault (D18) or `Prefer` forces the answer; else the parameters, then the handler. */
  const answerOperation = (
    operation: OperationSpec,
    rawParams: Readonly<Record<string, string>>,
    request: CoreRequest,
    session: Session,
    faults = true,
  ): CoreResponse => {
    const fault = faults ? session.faults.take(operation.operationId) : undefined;
    if (fault) {
      const response: CoreResponse = fault.drop
        ? { ...jsonResponse(0, undefined, session), drop: true }
        : fault.status === undefined
          ? answerOperation(operation, rawParams, request, session, false)
          : forcedResponse(forcer.status(operation, fault.status, rawParams, fault.message), session);
      response.headers[faultSettings.header] = 'control';
      response.delayMs = fault.delayMs;
      return response;
    }
    const prefer = parsePrefer(request.header('prefer'));
    if (prefer) {
      const outcome = forcer.prefer(operation, prefer, rawParams);
      return outcome.ok ? forcedResponse(outcome.value, session) : errorResponse(outcome.error, session);
    }
    const params = new Map<string, ExactJson>();
    let query: URLSearchParams | undefined;
    for (const parameter of operation.parameters) {
      let raw: RawParameter | undefined;
      // Cookies are not read: no operation of the document declares one, and the mock sets none.
      if (parameter.in === 'cookie') continue;
      if (parameter.in === 'path') raw = rawParams[parameter.name];
      else if (parameter.in === 'header') raw = request.header(parameter.name.toLowerCase());
      else {
        query ??= new URLSearchParams(/\?([^#]*)/.exec(request.url)?.[1]);
        const values = query.getAll(parameter.name);
        raw = values.length > 0 ? values : undefined;
      }
      const verdict = contract.validateParameter(operation.operationId, parameter.in, parameter.name, raw);
      if (!verdict.ok) return errorResponse(parameterError(parameter, verdict.error, raw), session);
      if (verdict.value !== undefined) params.set(parameter.name, verdict.value);
    }
    const handler = API_HANDLERS[operation.operationId] as ApiHandler;
    return handler(session, params, sessions.fixtures, headersOf.get(operation));
  };

  function reply(request: CoreRequest): CoreResponse {
    const pathname = requestPath(request.url);
    const match = route(request.method, pathname);
    const sessionName = request.header('x-mock-session') || undefined;
    // Before the key and the preflight: a foreign page must not steer the mock even with the public key (D14).
    const foreign = !cors.allows(request.header('origin'));
    if (foreign && (match.kind === 'match' ? match.target.kind === 'control' : isControlTarget(pathname))) {
      return errorResponse(mockError('originNotAllowed'), sessions.peek(undefined));
    }
    // The inspector's page holds no data, and a browser opening it sends no key.
    if (options.inspector) {
      const asset = options.inspector(contract, request.method, pathname);
      if (asset) return asset;
    } else if (request.method === 'GET' && /^\/__mock\/(?:$|inspector\.)/.test(pathname)) {
      return errorResponse(NO_INSPECTOR, undefined);
    }

    if (request.method === 'OPTIONS') {
      // A preflight passes, so the page reads the mock's own 404, 405 or 401, not an opaque CORS failure (D14).
      if (match.kind === 'not-found' && request.header('access-control-request-method') === undefined)
        return errorResponse(notFound, sessions.peek(undefined));
      const allow = match.kind === 'not-found' ? [] : match.allow;
      return jsonResponse(204, undefined, sessions.peek(undefined), cors.preflight(request, allow));
    }
    const auth = authenticate(request.header('authorization'));
    if (!auth.ok) {
      // Logged in the default session only, so a keyless request cannot push a test's entries out.
      const refused = errorResponse(auth.error, sessions.peek(undefined));
      return match.kind === 'match' && match.target.kind === 'api'
        ? withHeaders(match.target.operation, refused)
        : refused;
    }
    if (sessionName !== undefined && sessionName.length > MAX_SESSION_NAME) {
      return errorResponse(mockError('invalidSession'), undefined);
    }
    const session = sessions.get(sessionName);
    if (match.kind === 'not-found') return errorResponse(notFound, session);
    if (match.kind === 'method-not-allowed') {
      const allow = match.allow.join(', ');
      const message = `${request.method.slice(0, 16)} is not supported on ${pathname.slice(0, 64)}; use ${allow}.`;
      return errorResponse(mockError('methodNotAllowed', { message, headers: { allow } }), session);
    }
    const target = match.target;
    if (target.kind === 'control') {
      return handleControl(target.name, request, { mock: engine, session, id: match.params.id });
    }

    const response = answerOperation(target.operation, match.params, request, session);
    return response.drop ? response : withHeaders(target.operation, response);
  }

  /** The answer with the delay and CORS headers; a bug in the mock is a 500 Error, not a dropped connection. */
  const respond = (request: CoreRequest): CoreResponse => {
    const delay = engine.delayMs; // in force when the request arrived, even if this request changes it
    let response: CoreResponse;
    try {
      response = reply(request);
    } catch (error) {
      onBug(
        `petstore mock: bug while answering ${request.method} ${request.url.slice(0, 200)}: ${String(error)}`,
      );
      return errorResponse(mockError('internalError'), undefined, cors.headers(request.header('origin')));
    }
    if (delay > 0) response.delayMs = (response.delayMs ?? 0) + delay;
    // Every answer, errors included, is readable by the page that asked (D14); a preflight has its own.
    if (response.headers['access-control-allow-origin'] === undefined) {
      Object.assign(response.headers, cors.headers(request.header('origin')));
    }
    return response;
  };

  const tooLarge = (request: CoreRequest): CoreResponse => ({
    ...errorResponse(TOO_LARGE, undefined, cors.headers(request.header('origin'))),
    close: true,
  });
  // The declared length is trusted for a refusal only, never for the bytes read.
  const declaredTooLarge = (request: CoreRequest) =>
    Number(request.header('content-length') ?? 0) <= MAX_BODY_BYTES ? undefined : tooLarge(request);

  const record = (request: CoreRequest, response: CoreResponse, startedAt: number, t0: number) => {
    const durationMs = performance.now() - t0;
    const { session, status, code } = response;
    session?.log.add(startedAt, request.method, request.url, status, durationMs, code);
    const named = session && session.name !== 'default' ? ` [${session.name}]` : '';
    log?.(`${request.method} ${clip(request.url, 200)} ${status} ${durationMs.toFixed(1)}ms${named}`);
    return response;
  };

  const engine = {
    contract,
    sessions,
    cors,
    delayMs: options.delayMs ?? 0,
    get apiKeys() {
      return apiKeys;
    },
    releaseDelayed() {
      for (const release of [...delayed]) release();
    },
    /** Waits out an answer's delay (a promise only then) and logs it; for an adapter's own answers too. */
    settle(request: CoreRequest, response: CoreResponse, startedAt: number, t0: number) {
      const wait = response.delayMs ?? 0;
      if (wait <= 0) return record(request, response, startedAt, t0);
      return new Promise<CoreResponse>((resolve) => {
        const release = () => {
          clearTimeout(timer);
          delayed.delete(release);
          resolve(record(request, response, startedAt, t0));
        };
        const timer = setTimeout(release, wait);
        delayed.add(release);
      });
    },
    /** The answer its head alone decides (a body declared too large, no valid key), before `100 Continue`. */
    refusal(request: CoreRequest): CoreResponse | undefined {
      const tooLarge = declaredTooLarge(request);
      if (tooLarge || request.method === 'OPTIONS') return tooLarge;
      return authenticate(request.header('authorization')).ok ? undefined : respond(request);
    },
    /** Body limit, answer, delay, log: a promise only for a body or a delay; `undefined` if the peer left. */
    answer(request: CoreRequest, readBody?: ReadBody): CoreResponse | Promise<CoreResponse | undefined> {
      const startedAt = Date.now();
      const t0 = performance.now();
      const refused = declaredTooLarge(request);
      if (refused !== undefined || readBody === undefined) {
        return engine.settle(request, refused ?? respond(request), startedAt, t0);
      }
      return readBody(MAX_BODY_BYTES).then((body) => {
        if (!body.ok && body.error === 'aborted') return undefined;
        const response = body.ok ? respond({ ...request, body: body.value }) : tooLarge(request);
        return engine.settle(request, response, startedAt, t0);
      });
    },
    /** Answers a WHATWG request (`target`: path and query below a mount); a drop (D18): `Response.error()`. */
    async handle(request: Request, target?: string): Promise<Response> {
      const url = target === undefined ? new URL(request.url) : undefined;
      const head: CoreRequest = {
        method: request.method,
        url: target ?? `${url?.pathname}${url?.search}`,
        header: (name) => request.headers.get(name) ?? undefined,
        body: undefined,
      };
      const response = await engine.answer(head, request.body === null ? undefined : webBody(request.body));
      if (response === undefined || response.drop) return Response.error();
      return new Response(response.body ?? null, { status: response.status, headers: response.headers });
    },
    reset() {
      sessions.resetAll();
      engine.delayMs = options.delayMs ?? 0;
    },
    /** Replaces the fixtures and resets every session; the keys follow unless the options fixed them. */
    reload(next: FixtureSet) {
      apiKeys = chooseKeys(options.apiKeys, next);
      authenticate = createAuthenticator(apiKeys);
      sessions.resetAll(next);
    },
  };
  return engine;
}
