/** The stateful mock as a Node library: the web-standard engine (also behind MSW), fixture files and a port. */
import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { defaultContract } from '../contract/index.js';
import type { Result } from '../result.js';
import { createMockControl, type MockControl } from './control.js';
import { createEngine, type EngineOptions } from './engine.js';
import { loadFixtures } from './fixture-files.js';
import type { FixtureData, FixtureError, FixtureSet } from './fixtures.js';
import { inspector } from './inspector.js';
import { createHttpServer } from './server.js';

export {
  type ControlOrder,
  type ControlOrderInput,
  type FaultPlanInput,
  type Int64Input,
  type LoggedRequest,
  type MockControl,
  MockControlError,
  type OperationId,
  type PlannedFault,
} from './control.js';
export { DEFAULT_FIXTURES_PATH } from './fixture-files.js';
export { DEV_API_KEY, type FixtureData, FixtureError, type FixtureOrder } from './fixtures.js';
export { MOCK_ERRORS } from './server.js';

/** The mock on a port always serves the state inspector, so `inspector` is no option here. */
export interface MockOptions extends Omit<EngineOptions, 'onBug' | 'inspector'> {
  /** A YAML/JSON fixture file, fixture data, or fixtures already loaded; default `fixtures/default.yaml`. */
  fixtures?: string | FixtureData | FixtureSet;
  /** Host names the control endpoints answer to besides the local ones (`--allowed-host`). */
  allowedHosts?: readonly string[];
}

export interface ListenInfo {
  /** `http://127.0.0.1:4010` */
  url: string;
  /** `http://127.0.0.1:4010/v1` */
  baseUrl: string;
  port: number;
}

/** The mock: its control methods ({@link MockControl}: `reset`, `seed`, `orders`, `fault`, …), plus a port. */
export interface Mock extends MockControl {
  /** Answers one request without a socket; rejects with a `TypeError`, as fetch does, on a drop (D18). */
  handle(request: Request): Promise<Response>;
  /** Listens on a port (`0` picks a free one); rejects with the socket error, e.g. EADDRINUSE. */
  listen(options?: { port?: number; host?: string }): Promise<ListenInfo>;
  /** Replaces the fixtures (`--watch`); a bad file leaves everything as it was. */
  reload(fixtures: string | FixtureData | FixtureSet): Result<FixtureSet, FixtureError>;
  close(): Promise<void>;
  readonly apiKeys: readonly string[];
  readonly fixtures: FixtureSet;
}

const CONNECTABLE: Readonly<Record<string, string>> = { '0.0.0.0': '127.0.0.1', '::': '[::1]' };

/** A mock of a contract (default the toolkit's): `await createMock({ fixtures, apiKeys: ['k'] })`. */
export async function createMock(options: MockOptions = {}): Promise<Mock> {
  const contract = options.contract ?? defaultContract();
  const loaded = loadFixtures(options.fixtures, contract);
  if (!loaded.ok) throw loaded.error;
  const engine = createEngine(loaded.value, {
    ...options,
    contract,
    inspector,
    onBug: (message) => process.emitWarning(message),
  });
  let server: Server | undefined;

  const mock: Mock = {
    ...createMockControl(engine),
    get apiKeys() {
      return engine.apiKeys;
    },
    get fixtures() {
      return engine.sessions.fixtures;
    },
    async handle(request) {
      const response = await engine.handle(request);
      if (response.type !== 'error') return response;
      throw new TypeError('fetch failed', { cause: new Error('simulated dropped connection (D18)') });
    },
    async listen({ port = 4010, host = '127.0.0.1' } = {}) {
      if (server) throw new Error('the mock is already listening; close() it first');
      const created = createHttpServer(engine, options.allowedHosts);
      server = created;
      await once(created.listen(port, host), 'listening').catch((error: unknown) => {
        server = undefined;
        throw error;
      });
      const actual = (created.address() as AddressInfo).port;
      const url = `http://${CONNECTABLE[host] ?? (host.includes(':') ? `[${host}]` : host)}:${actual}`;
      return { url, baseUrl: url + contract.basePath, port: actual };
    },
    reload(source) {
      const next = loadFixtures(source, contract);
      if (next.ok) engine.reload(next.value);
      return next;
    },
    async close() {
      const current = server;
      server = undefined;
      if (!current) return;
      engine.releaseDelayed();
      current.close();
      current.closeAllConnections();
      await once(current, 'close');
    },
  };
  return mock;
}
