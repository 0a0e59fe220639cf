/**
 * The mock's core: a function from a request to a response, with no socket. Each request goes
 * route → authenticate → validate → state transition → respond:
 *
 * 1. A CORS preflight (`OPTIONS`) is answered from the route table without a key (D14); a page whose
 *    origin is not allowed gets no CORS headers, and the control endpoints refuse it outright.
 * 2. Every other request must carry a valid key, before anything about the path is judged (D6, D7).
 * 3. Unknown paths are 404 `not_found`, other methods 405 `method_not_allowed` with `Allow` (D10).
 * 4. `Prefer: code=NNN` forces a documented response and skips the rest.
 * 5. Path parameters are parsed by the contract; an id that is not an int64 names nothing (D9).
 * 6. The state transition comes from the document's state table (§3, D1–D3).
 *
 * Web-standard only (no Node built-in on this path), so the same core answers on a socket (server.ts),
 * in-process and under MSW in a page (web.ts); each entry point builds a {@link CoreRequest} and the
 * request target goes through the one reading of request-target.ts.
 */
import { contract, type OperationSpec, type ParameterSpec } from '../contract/index.js';
import { type Authenticator, createAuthenticator } from './auth.js';
import { CONTROL_BASE, CONTROL_ROUTES, type ControlName, handleControl } from './control.js';
import { type Cors, compileCors } from './cors.js';
import { type MockErrorName, mockError } from './errors.js';
import { faultSettings } from './faults.js';
import type { FixtureSet } from './fixtures.js';
import { inspectorAsset } from './inspector.js';
import { compilePrefer, type ForcedResponse, parsePrefer } from './prefer.js';
import type { CoreRequest } from './request.js';
import { requestPath } from './request-target.js';
import { type CoreResponse, emptyResponse, errorResponse, jsonResponse } from './responses.js';
import { compileRouter, type RouteMatch, type Router, type RouteSpec } from './router.js';
import { DEFAULT_LIMITS, type Session, type SessionLimits, Sessions } from './sessions.js';

/** The base path of the API (D12): every documented path is served below it. */
export const API_BASE = '/v1';

const MAX_SESSION_NAME = 128;

type Target = { kind: 'api'; operation: OperationSpec } | { kind: 'control'; name: ControlName };

export type ApiHandler = (
  session: Session,
  params: ReadonlyMap<string, bigint | number | string>,
  fixtures: FixtureSet,
) => CoreResponse;

/** Whether a request is for a control endpoint, known or not (`/__mock/…`, however it is escaped). */
function isControl(match: RouteMatch<Target>, pathname: string): boolean {
  if (match.kind === 'match') return match.target.kind === 'control';
  let decoded = pathname;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    // A broken escape stays as written.
  }
  return decoded === CONTROL_BASE || decoded.startsWith(`${CONTROL_BASE}/`);
}

/** `Deprecation` and `Sunset` (D11), sent on every answer of a deprecated operation. */
function deprecationHeaders(fixtures: FixtureSet): Record<string, string> {
  return { deprecation: fixtures.deprecationHeader, sunset: fixtures.sunsetHeader };
}

/** What each documented operation does; every operation of the document must have one (checked at start). */
const API_HANDLERS: Readonly<Record<string, ApiHandler>> = {
  listOrders: (session) => jsonResponse(200, session.orders.listBody(), session),
  cancelOrder: (session, params) => {
    const outcome = session.orders.apply(params.get('orderId') as bigint, 'cancelOrder');
    return outcome.ok ? emptyResponse(outcome.value.status, session) : errorResponse(outcome.error, session);
  },
  getPet: (session, params, fixtures) => {
    const id = params.get('petId') as bigint;
    const pet = fixtures.pets.get(id);
    return pet
      ? jsonResponse(200, pet.body, session, deprecationHeaders(fixtures))
      : errorResponse(mockError('petNotFound', { id }), session, deprecationHeaders(fixtures));
  },
};

/** The Error for a path parameter that is not what the document says: it names no resource (D9). */
const MALFORMED_PARAMETER: Readonly<Record<string, MockErrorName>> = {
  orderId: 'orderNotFound',
  petId: 'petNotFound',
};

export interface CoreOptions {
  fixtures: FixtureSet;
  apiKeys: readonly string[];
  limits?: SessionLimits;
  /** Milliseconds added before every answer; `PUT /__mock/delay` changes it at run time. */
  delayMs?: number;
  /** Origins allowed besides the local ones (D14); `*` allows any. */
  corsOrigins?: readonly string[];
}

export interface Core {
  /** The answer to one request; throws only on a bug (see {@link respondSafely}). */
  respond(request: CoreRequest): CoreResponse;
  /**
   * The answer a request gets whatever its body, when its head alone decides it (a missing or wrong key);
   * `undefined` when the body may matter. The socket adapter asks before it sends `100 Continue`.
   */
  refusal(request: CoreRequest): CoreResponse | undefined;
  readonly sessions: Sessions;
  /** The CORS answers for the allowed origins; adapters use them for the errors they answer themselves. */
  readonly cors: Cors;
  apiKeys: readonly string[];
  /** The global delay before every answer, in milliseconds; the adapters carry it out. */
  delayMs: number;
  /** Swaps in new fixtures (`--watch`) and resets every session to them. */
  reload(fixtures: FixtureSet, apiKeys: readonly string[]): void;
}

/** A response forced by `Prefer` or a fault, with the operation's deprecation headers. */
function forcedResponse(
  forced: ForcedResponse,
  session: Session,
  deprecation: Record<string, string> | undefined,
): CoreResponse {
  const headers = { ...deprecation, ...forced.headers };
  if (forced.body === undefined) return emptyResponse(forced.status, session, headers);
  const response = jsonResponse(forced.status, forced.body, session, headers);
  // The request log shows an Error's code; a forced body is a small Error or a documented example.
  if (forced.status >= 400) response.code = errorCodeOf(forced.body);
  return response;
}

function errorCodeOf(body: string): string | undefined {
  try {
    const code = (JSON.parse(body) as { code?: unknown } | null)?.code;
    return typeof code === 'string' ? code : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Runs the core, turning a bug into a 500 Error rather than a dropped connection or a rejected promise.
 *
 * @example respondSafely(core, request, (message) => console.warn(message)).status // never thrown
 */
export function respondSafely(
  core: Core,
  request: CoreRequest,
  report: (message: string) => void,
): CoreResponse {
  try {
    return core.respond(request);
  } catch (error) {
    report(
      `petstore mock: bug while answering ${request.method} ${request.url.slice(0, 200)}: ${String(error)}`,
    );
    return errorResponse(mockError('internalError'), undefined, core.cors.headers(request.header('origin')));
  }
}

/**
 * Builds the core over fixtures and keys.
 *
 * @example createCore({ fixtures, apiKeys: ['k'] }).respond(fromHeaders('GET', '/v1/store/orders', new Headers({ authorization: 'Bearer k' }), undefined))
 */
export function createCore(options: CoreOptions): Core {
  for (const operation of contract.operations) {
    if (!API_HANDLERS[operation.operationId]) throw new Error(`no handler for ${operation.operationId}`);
  }
  const routes: RouteSpec<Target>[] = [
    ...contract.operations.map((operation) => ({
      method: operation.method.toUpperCase(),
      path: API_BASE + operation.path,
      target: { kind: 'api', operation } as const,
    })),
    ...CONTROL_ROUTES.map((route) => ({ ...route, target: { kind: 'control', name: route.name } as const })),
  ];
  const route: Router<Target> = compileRouter(routes);
  const forcer = compilePrefer(contract.operations);
  let delayMs = options.delayMs ?? 0;
  const cors = compileCors(undefined, options.corsOrigins);
  const sessions = new Sessions(options.fixtures, options.limits ?? DEFAULT_LIMITS);
  let authenticate: Authenticator = createAuthenticator(options.apiKeys);
  const pathParameters = new Map<string, ParameterSpec[]>(
    contract.operations.map((operation) => [
      operation.operationId,
      operation.parameters.filter((p) => p.in === 'path'),
    ]),
  );

  /** Steps 4–6 for a documented operation: Prefer, then parameters, then the handler's transition. */
  const answerOperation = (
    operation: OperationSpec,
    rawParams: Readonly<Record<string, string>>,
    request: CoreRequest,
    session: Session,
    faults = true,
  ): CoreResponse => {
    const deprecation = operation.deprecated ? deprecationHeaders(sessions.fixtures) : undefined;
    const fault = faults ? session.faults.take(operation.operationId) : undefined;
    if (fault) {
      const delay = { delayMs: fault.delayMs };
      if (fault.drop) return { ...emptyResponse(0, session), ...delay, drop: true };
      if (fault.status !== undefined) {
        const left = fault.remaining === 0 ? 'the last of its requests' : `${fault.remaining} more to come`;
        const why = `fault ${fault.id} of /__mock/faults asked for it (${left})`;
        const forced = forcer.status(operation, fault.status, rawParams, why);
        return { ...forcedResponse(forced, session, deprecation), ...delay };
      }
      const slowed = answerOperation(operation, rawParams, request, session, false);
      slowed.headers[faultSettings.header] = 'control';
      return { ...slowed, ...delay };
    }
    const prefer = parsePrefer(request.header('prefer'));
    if (prefer) {
      const outcome = forcer.prefer(operation, prefer, rawParams);
      if (!outcome.ok) return errorResponse(outcome.error, session, deprecation);
      return forcedResponse(outcome.value, session, deprecation);
    }
    const params = new Map<string, bigint | number | string>();
    for (const parameter of pathParameters.get(operation.operationId) ?? []) {
      const raw = rawParams[parameter.name] ?? '';
      const parsed = contract.parseParameter(parameter, raw);
      if (!parsed.ok) {
        const name = MALFORMED_PARAMETER[parameter.name] ?? 'notFound';
        return errorResponse(mockError(name, { id: raw }), session, deprecation);
      }
      params.set(parameter.name, parsed.value);
    }
    const handler = API_HANDLERS[operation.operationId] as ApiHandler;
    return handler(session, params, sessions.fixtures);
  };

  const core: Core = {
    sessions,
    cors,
    apiKeys: options.apiKeys,
    get delayMs() {
      return delayMs;
    },
    set delayMs(value: number) {
      delayMs = value;
    },
    reload(fixtures, apiKeys) {
      authenticate = createAuthenticator(apiKeys);
      core.apiKeys = apiKeys;
      sessions.resetAll(fixtures);
    },
    refusal(request) {
      if (request.method === 'OPTIONS' || authenticate(request.header('authorization')).ok) return undefined;
      return core.respond(request);
    },
    respond(request) {
      // The delay in force when the request arrived, even if this request changes it.
      const delay = delayMs;
      const response = answer(request);
      if (delay > 0) response.delayMs = (response.delayMs ?? 0) + delay;
      // Every answer, errors included, is readable by the page that asked (D14); a preflight has its own.
      if (response.headers['access-control-allow-origin'] === undefined) {
        Object.assign(response.headers, cors.headers(request.header('origin')));
      }
      return response;
    },
  };

  /** Steps 1–6 of the module comment, without the CORS headers that every answer gets. */
  function answer(request: CoreRequest): CoreResponse {
    const pathname = requestPath(request.url);
    const match = route(request.method, pathname);
    const sessionName = request.header('x-mock-session') || undefined;
    const origin = request.header('origin');
    // Before the key and before a preflight: a foreign page must not steer the mock even with the
    // public default key, and must not learn anything from a control endpoint (D14).
    if (!cors.allows(origin) && isControl(match, pathname)) {
      return errorResponse(mockError('originNotAllowed'), sessions.peek(undefined));
    }
    // The inspector's page holds no data, and a browser opening it sends no key.
    const asset = inspectorAsset(request.method, pathname);
    if (asset) return asset;

    if (request.method === 'OPTIONS') {
      // Keyless like a 401 below, so logged in the default session only. A browser's preflight always passes, so that the page then sees the mock's own answer (the
      // 404, 405 or 401 Error) instead of an opaque CORS failure. A plain OPTIONS on an unknown path is 404.
      const requested = request.header('access-control-request-method');
      if (match.kind === 'not-found' && requested === undefined)
        return errorResponse(mockError('notFound'), sessions.peek(undefined));
      const allow = match.kind === 'not-found' ? [] : match.allow;
      const preflight = cors.preflight(
        {
          origin,
          method: requested,
          headers: request.header('access-control-request-headers'),
          privateNetwork: request.header('access-control-request-private-network'),
        },
        allow,
      );
      return emptyResponse(204, sessions.peek(undefined), preflight);
    }
    const auth = authenticate(request.header('authorization'));
    if (!auth.ok) {
      // The route is known before the key is checked, so a deprecated operation says so on its 401 too.
      const deprecated =
        match.kind === 'match' && match.target.kind === 'api' && match.target.operation.deprecated;
      const headers = deprecated ? deprecationHeaders(sessions.fixtures) : undefined;
      // Logged in the shared default session only: a request without a key never writes into a named
      // session's log, so it cannot push a test's own entries out.
      return errorResponse(auth.error, sessions.peek(undefined), headers);
    }
    if (sessionName !== undefined && sessionName.length > MAX_SESSION_NAME) {
      return errorResponse(mockError('invalidSession'), undefined);
    }
    const session = sessions.get(sessionName);
    if (match.kind === 'not-found') return errorResponse(mockError('notFound'), session);
    if (match.kind === 'method-not-allowed') {
      return errorResponse(
        mockError('methodNotAllowed', {
          message: `${request.method.slice(0, 16)} is not supported on ${pathname.slice(0, 64)}; use ${match.allow.join(', ')}.`,
        }),
        session,
        { allow: match.allow.join(', ') },
      );
    }
    const target = match.target;
    if (target.kind === 'control') {
      return handleControl(target.name, { request, session, sessions, params: match.params, settings: core });
    }

    return answerOperation(target.operation, match.params, request, session);
  }
  return core;
}
