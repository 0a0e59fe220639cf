/** The stateful mock as MSW handlers: the same web-standard engine that answers on a socket. */
import { type HttpHandler, http } from 'msw';
import { defaultContract } from '../contract/index.js';
import { createMockControl, type MockControl } from '../mock/control.js';
import { createEngine, type EngineOptions } from '../mock/engine.js';
import { buildFixtures, type FixtureData } from '../mock/fixtures.js';
import type { Persist } from './persist.js';

export type {
  ControlOrder,
  ControlOrderInput,
  FaultPlanInput,
  Int64Input,
  LoggedRequest,
  MockControl,
  OperationId,
  PlannedFault,
} from '../mock/control.js';
export { MockControlError } from '../mock/control.js';
export { DEV_API_KEY, type FixtureData, FixtureError, type FixtureOrder } from '../mock/fixtures.js';
export type { Inspector } from '../mock/inspector.js';
export type { Persist } from './persist.js';

/** What `createHandlers` returns: the handlers (`setupServer(...mock)`) carrying the control methods. */
export type MockHandlers = HttpHandler[] &
  MockControl & {
    readonly handlers: HttpHandler[];
    /** The keys the handlers accept, as `createMock().apiKeys`. */
    readonly apiKeys: readonly string[];
  };

export interface HandlersOptions extends EngineOptions {
  /** The content of a fixture file, as a value (ids as numbers, bigints or decimal strings). */
  fixtures: FixtureData;
  /** Where the API lives, ending in the base path (D12): `http://api.test/v1`, or `/v1` (default). */
  baseUrl?: string;
  /** `inSessionStorage` (`petstore-contract-toolkit/msw/persist`) keeps the state across reloads. */
  persist?: Persist;
}

/** Every option: its type, then what to pass, so a wrong one is named first (issue 24). */
const OPTIONS: Readonly<Record<string, string>> = {
  fixtures: 'object fixture data, e.g. { orders: [] }',
  baseUrl: 'string a string ending in /v1',
  persist: "function inSessionStorage from 'petstore-contract-toolkit/msw/persist'",
  inspector: "function inspector from 'petstore-contract-toolkit/msw/inspector'",
  apiKeys: 'array an array of strings',
  corsOrigins: 'array an array of strings',
  delayMs: 'number',
  limits: 'object',
  log: 'function',
  onBug: 'function',
  contract: 'object',
};

/** The type of a value, never the value itself: a key passed as a string must not be printed. */
const typeOf = (value: unknown) => (Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value);

function checkOptions(options: Partial<HandlersOptions> | undefined): void {
  for (const [name, value] of Object.entries({ fixtures: undefined, ...options })) {
    const takes = OPTIONS[name];
    if (!takes) {
      throw new TypeError(
        `createHandlers: unknown option ${name.slice(0, 40)}; the options are ${Object.keys(OPTIONS).join(', ')}`,
      );
    }
    const [type, ...what] = takes.split(' ');
    if ((value !== undefined || name === 'fixtures') && type !== typeOf(value)) {
      throw new TypeError(`createHandlers: ${name} takes ${what.join(' ') || type}, got ${typeOf(value)}`);
    }
  }
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** Where the handlers answer: `<root><basePath>/`, `<root>/__mock/`, case and all (unlike MSW's strings). */
function claimOf(baseUrl: string, basePath: string) {
  const trimmed = baseUrl.replace(/\/+$/, '');
  if (!trimmed.endsWith(basePath)) {
    throw new Error(`createHandlers: baseUrl must end in ${basePath} (D12), got ${JSON.stringify(baseUrl)}`);
  }
  const root = trimmed.slice(0, trimmed.length - basePath.length);
  const absolute = /^[a-z][a-z0-9+.-]*:/i.test(root) ? new URL(`${root}/`) : undefined;
  // The path before the base path, which the engine does not see: `https://x/api/v1` → `/api`.
  const prefix = absolute ? absolute.pathname.slice(0, -1) : root;
  const origin = absolute?.origin ?? (globalThis as { location?: { origin?: string } }).location?.origin;
  const host = origin === undefined ? '[a-z][a-z0-9+.-]*://[^/]+' : escapeRegExp(origin);
  const pattern = new RegExp(`^${host}${escapeRegExp(prefix)}(?:${escapeRegExp(basePath)}|/__mock)/`);
  return { root, prefix, pattern };
}

/** MSW handlers with the control methods: `setupServer(...createHandlers({ fixtures, apiKeys: ['k'] }))`. */
export function createHandlers(options: HandlersOptions): MockHandlers {
  checkOptions(options);
  const contract = options.contract ?? defaultContract();
  const fixtures = buildFixtures(options.fixtures, contract);
  if (!fixtures.ok) throw fixtures.error;
  const engine = createEngine(fixtures.value, { ...options, contract });
  const { root, prefix, pattern } = claimOf(options.baseUrl ?? contract.basePath, contract.basePath);
  const key = `petstore-mock:${root}${contract.basePath}`;
  const persistence = options.persist?.(key, engine);
  const answer = async ({ request }: { request: Request }) => {
    const url = new URL(request.url);
    // What rejects here is the page's body stream failing: the network error fetch would give, not MSW's 500.
    const response = await engine
      .handle(request, url.pathname.slice(prefix.length) + url.search)
      .catch(() => Response.error());
    persistence?.save();
    return response;
  };
  const handlers: HttpHandler[] = [http.all(pattern, answer)];
  // Not enumerable, so the array spreads, logs and compares as plain handlers.
  const properties: PropertyDescriptorMap = {
    handlers: { value: [...handlers] },
    apiKeys: { get: () => engine.apiKeys },
  };
  for (const [name, run] of Object.entries(createMockControl(engine))) {
    const method = run as (...args: unknown[]) => Promise<unknown>;
    properties[name] = {
      value: persistence ? (...args: unknown[]) => method(...args).finally(persistence.save) : run,
    };
  }
  return Object.defineProperties(handlers, properties) as MockHandlers;
}
