/**
 * `petstore mock`: runs the mock on a port until SIGINT/SIGTERM. Every user error (a bad flag, a port in
 * use, a bad fixture file) is one line naming the problem and the fix, and exit code 2.
 */
import { relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { type Contract, defaultContract } from '../contract/index.js';
import { loadSpecFile } from '../contract/spec-file.js';
import type { Result } from '../result.js';
import type { Subcommand } from '../subcommand.js';
import { apiKeyProblem } from './auth.js';
import { controlOverlap, unservedOperation } from './core.js';
import { parseAllowedHost, parseCorsOrigin } from './cors.js';
import { MAX_DELAY_MS } from './faults.js';
import { DEFAULT_FIXTURES_PATH, loadFixtureFileAsync } from './fixture-files.js';
import { watchFixtureFile } from './fixture-watch.js';
import { DEV_API_KEY } from './fixtures.js';
import { createMock, type ListenInfo, type Mock } from './index.js';
import { createLineWriter } from './line-writer.js';

export const MOCK_USAGE = `Usage: petstore mock [options]

Runs the stateful mock of the Pet Store Orders API v1 (docs/mock.md).

Options:
  --port PORT       Port to listen on (default 4010; 0 picks a free one)
  --host HOST       Address to listen on (default 127.0.0.1; 0.0.0.0 for every interface)
  --fixtures FILE   YAML or JSON fixture file (default: the built-in fixtures/default.yaml)
  --spec FILE       Serve another OpenAPI 3.1 document (YAML or JSON), such as a draft of the next
                    version, under the path of its local servers entry (default: the built-in one)
  --api-key KEY     Accepted bearer key; repeat for several. Default: $PETSTORE_API_KEY, else the
                    fixture file's apiKeys, else ${DEV_API_KEY}
  --cors-origin ORIGIN
                    Let pages from ORIGIN (https://app.test:8443) use the mock; repeat for several.
                    Local pages (localhost, 127.0.0.0/8, [::1]) always may; * allows any page
  --allowed-host NAME
                    Let the control endpoints (/__mock/) answer to Host NAME too (mock.lan); repeat
                    for several. Local names always may; others get 403 (DNS rebinding)
  --delay MS        Wait MS milliseconds before every answer (default 0, at most ${MAX_DELAY_MS})
  --watch           Reload the fixture file when it changes (a broken edit keeps the last good state)
  --quiet           No log line per request
  -h, --help        Show this help
`;

export interface MockCliOptions {
  port: number;
  host: string;
  fixtures: string | undefined;
  /** Another OpenAPI document to serve (`--spec`). */
  spec: string | undefined;
  apiKeys: string[];
  /** Where `apiKeys` came from, when not from the fixtures. */
  keySource: '--api-key' | 'PETSTORE_API_KEY' | undefined;
  delayMs: number;
  /** Origins besides the local ones whose pages may use the mock (D14); `*` for any. */
  corsOrigins: string[];
  /** Host names besides the local ones that the control endpoints answer to. */
  allowedHosts: string[];
  watch: boolean;
  quiet: boolean;
  help: boolean;
}

export type ParsedArgs = Result<MockCliOptions, string>;

const OPTIONS = {
  port: { type: 'string' },
  host: { type: 'string' },
  fixtures: { type: 'string' },
  spec: { type: 'string' },
  'api-key': { type: 'string', multiple: true },
  'cors-origin': { type: 'string', multiple: true },
  'allowed-host': { type: 'string', multiple: true },
  delay: { type: 'string' },
  watch: { type: 'boolean' },
  quiet: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/**
 * `--delay -5` as `--delay=-5`: node's parseArgs calls a value that starts with a dash "ambiguous", which
 * hides the real problem (a negative number, or a key that starts with `-`). A value that is itself a
 * flag (`--fixtures --quiet`, `--port -h`) stays ambiguous.
 */
function joinDashValues(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const next = argv[i + 1];
    const option = OPTIONS[arg.slice(2) as keyof typeof OPTIONS];
    const takesValue = arg.startsWith('--') && option?.type === 'string';
    if (takesValue && next?.startsWith('-') && !next.startsWith('--') && next !== '-h') {
      out.push(`${arg}=${next}`);
      i++;
    } else {
      out.push(arg);
    }
  }
  return out;
}

/** `1 order`, `2 orders`. */
export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

function integerFlag(name: string, raw: string | undefined, fallback: number, max: number): number | string {
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) > max)
    return `--${name} must be a whole number from 0 to ${max}, got "${raw}"`;
  return Number(raw);
}

/**
 * Reads the flags; keys fall back to `PETSTORE_API_KEY` (the fixtures come later).
 *
 * @example parseMockArgs(['--port', '0', '--quiet'], {}) // { ok: true, value: { port: 0, quiet: true, … } }
 */
export function parseMockArgs(argv: string[], env: NodeJS.ProcessEnv): ParsedArgs {
  let values: Record<string, string | boolean | string[] | undefined>;
  try {
    ({ values } = parseArgs({
      args: joinDashValues(argv),
      strict: true,
      allowPositionals: false,
      options: OPTIONS,
    }));
  } catch (error) {
    // node's messages add advice about positionals after the first sentence; the first one is the point.
    const message = (error instanceof Error ? error.message : String(error)).split(/\.(\s|$)/)[0];
    return { ok: false, error: `${message}. Run \`petstore mock --help\` for the options.` };
  }
  const port = integerFlag('port', values.port as string | undefined, 4010, 65535);
  if (typeof port === 'string') return { ok: false, error: port };
  const delayMs = integerFlag('delay', values.delay as string | undefined, 0, MAX_DELAY_MS);
  if (typeof delayMs === 'string') return { ok: false, error: delayMs };
  const host = (values.host as string | undefined) ?? '127.0.0.1';
  if (host.trim() === '') return { ok: false, error: '--host must not be empty; use 127.0.0.1 or 0.0.0.0' };
  const corsOrigins: string[] = [];
  for (const raw of (values['cors-origin'] as string[] | undefined) ?? []) {
    const origin = parseCorsOrigin(raw);
    if (!origin.ok) return { ok: false, error: `--cors-origin: ${origin.error}` };
    corsOrigins.push(origin.value);
  }
  const allowedHosts: string[] = [];
  for (const raw of (values['allowed-host'] as string[] | undefined) ?? []) {
    const name = parseAllowedHost(raw);
    if (!name.ok) return { ok: false, error: `--allowed-host: ${name.error}` };
    allowedHosts.push(name.value);
  }
  const flagKeys = (values['api-key'] as string[] | undefined) ?? [];
  const envKey = env.PETSTORE_API_KEY?.trim();
  const apiKeys = flagKeys.length > 0 ? flagKeys : envKey ? [envKey] : [];
  const from = flagKeys.length > 0 ? '--api-key' : 'PETSTORE_API_KEY';
  const problem = apiKeys.map((key) => apiKeyProblem(key, from)).find((p) => p !== undefined);
  if (problem !== undefined) return { ok: false, error: problem };
  return {
    ok: true,
    value: {
      port,
      host,
      fixtures: values.fixtures as string | undefined,
      spec: values.spec as string | undefined,
      apiKeys,
      keySource: flagKeys.length > 0 ? '--api-key' : envKey ? 'PETSTORE_API_KEY' : undefined,
      delayMs,
      corsOrigins,
      allowedHosts,
      watch: values.watch === true,
      quiet: values.quiet === true,
      help: values.help === true,
    },
  };
}

function keySource(options: MockCliOptions, mock: Mock): string {
  if (options.keySource) return options.keySource;
  return mock.fixtures.apiKeys.length > 0 ? 'the fixture file' : 'the built-in development key';
}

/** The contract to serve: the built-in one, or `--spec FILE` when the mock can serve it. */
function chooseContract(spec: string | undefined): Result<Contract, string> {
  if (spec === undefined) return { ok: true, value: defaultContract() };
  const loaded = loadSpecFile(spec);
  if (!loaded.ok) return loaded;
  const unserved = controlOverlap(loaded.value) ?? unservedOperation(loaded.value);
  return unserved === undefined ? loaded : { ok: false, error: `--spec ${spec}: ${unserved}` };
}

/** The start-up banner: URL, keys, and curl lines to paste. */
export function banner(
  info: ListenInfo,
  mock: Mock,
  source: string,
  fixturesPath: string,
  host = '127.0.0.1',
): string {
  const exposed = host === '0.0.0.0' || host === '::';
  const key = mock.apiKeys[0] ?? DEV_API_KEY;
  const header = `-H 'Authorization: Bearer ${key}'`;
  const orders = [...mock.fixtures.orders.orders.values()];
  const pending = orders.find((order) => order.state === 'pending');
  return [
    `Pet Store mock listening on ${info.baseUrl}${exposed ? ` (bound to ${host}: reachable from other machines)` : ''}`,
    `  fixtures: ${fixturesPath} (${plural(orders.length, 'order')}, ${plural(mock.fixtures.pets.size, 'pet')})${mock.fixtures.description === undefined ? '' : `, ${JSON.stringify(mock.fixtures.description)}`}`,
    `  API key${mock.apiKeys.length > 1 ? 's: ' : ':  '}${mock.apiKeys.join(', ')} (from ${source})`,
    `  list:     curl ${header} ${info.baseUrl}/store/orders`,
    `  cancel:   curl -i -X DELETE ${header} ${info.baseUrl}/store/orders/${pending?.id ?? 1}`,
    `  state:    curl ${header} ${info.url}/__mock/state`,
    'Press Ctrl+C to stop.',
    '',
  ].join('\n');
}

/** Whether a listening address is reachable from this machine only. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (bare === 'localhost' || bare === '::1' || bare === '0:0:0:0:0:0:0:1') return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare) || /^::ffff:127\./.test(bare);
}

/**
 * The warning for a mock that other machines can reach: the control endpoints let anyone with the key read
 * and steer it, and the default key is public. Never names the key.
 *
 * @example exposureWarning('0.0.0.0', mock) // 'warning: listening on 0.0.0.0, reachable from other machines: …'
 */
export function exposureWarning(host: string, mock: Pick<Mock, 'apiKeys'>): string | undefined {
  if (isLoopbackHost(host)) return undefined;
  const key = mock.apiKeys.includes(DEV_API_KEY)
    ? 'the default key is public, so anyone on the network'
    : 'anyone on the network who has the key';
  return `warning: listening on ${host}, reachable from other machines: ${key} can read every order and change the mock's state (cancel, reset, faults, delays). Use --host 127.0.0.1 unless other machines must reach it, and then set a key of your own with --api-key.`;
}

function listenProblem(error: NodeJS.ErrnoException, options: MockCliOptions): string {
  switch (error.code) {
    case 'EADDRINUSE':
      return `port ${options.port} on ${options.host} is already in use. Stop the other server or pick another port with --port (0 picks a free one).`;
    case 'EACCES':
      return `no permission to listen on port ${options.port}. Pick a port above 1023 with --port.`;
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `cannot listen on host "${options.host}": it is not an address of this machine. Use --host 127.0.0.1 or --host 0.0.0.0.`;
    default:
      return `cannot listen on ${options.host}:${options.port} (${error.code ?? error.message}). Try another --port or --host.`;
  }
}

function fail(message: string): number {
  process.stderr.write(`petstore mock: ${message}\n`);
  return 2;
}

function displayPath(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel.startsWith('..') || rel === '' ? path : rel;
}

/**
 * Runs `petstore mock` until a signal; resolves to the exit code.
 *
 * @example await runMockCommand(['--port', '0', '--quiet'])
 */
export const runMockCommand: Subcommand = async (argv) => {
  const parsed = parseMockArgs(argv, process.env);
  if (!parsed.ok) return fail(parsed.error);
  const options = parsed.value;
  if (options.help) {
    process.stdout.write(MOCK_USAGE);
    return 0;
  }
  const contract = chooseContract(options.spec);
  if (!contract.ok) return fail(contract.error);
  const fixturesPath = options.fixtures === undefined ? DEFAULT_FIXTURES_PATH : resolve(options.fixtures);
  // Not process.stdout: a paused terminal would stop the server and an unread pipe would fill memory
  // (line-writer.ts). `petstore mock | head` closing our stdout early just ends the output.
  const out = createLineWriter(1);
  const err = createLineWriter(2);
  const say = (line: string) => out.write(line);
  const warn = (line: string) => err.write(`petstore mock: ${line}`);
  // Read asynchronously, and a large file parsed in a worker (fixture-files.ts): the parser's garbage
  // does not stay resident in the server.
  const loaded = await loadFixtureFileAsync(fixturesPath, contract.value);
  if (!loaded.ok) {
    await Promise.all([out.close(), err.close()]);
    const { source, message } = loaded.error;
    return fail(
      `invalid fixture file ${displayPath(source)}: ${message.slice(source.length + 2)}. Fix the file, or pass another with --fixtures FILE.`,
    );
  }
  let mock: Mock;
  try {
    mock = await createMock({
      contract: contract.value,
      fixtures: loaded.value,
      ...(options.apiKeys.length > 0 ? { apiKeys: options.apiKeys } : {}),
      delayMs: options.delayMs,
      corsOrigins: options.corsOrigins,
      allowedHosts: options.allowedHosts,
      ...(options.quiet ? {} : { log: say }),
    });
  } catch (error) {
    // Only a --spec document lacking what the mock reads (x-petstore-cors, x-petstore-faults) gets here.
    await Promise.all([out.close(), err.close()]);
    return fail(`--spec ${options.spec}: ${error instanceof Error ? error.message : String(error)}`);
  }
  let info: ListenInfo;
  try {
    info = await mock.listen({ port: options.port, host: options.host });
  } catch (error) {
    await Promise.all([out.close(), err.close()]);
    return fail(listenProblem(error as NodeJS.ErrnoException, options));
  }
  // Watch and listen for signals before announcing: whoever reads the banner may act on it at once.
  const stopWatching = options.watch
    ? watchFixtureFile({
        path: fixturesPath,
        contract: contract.value,
        current: () => mock.fixtures,
        apply: (fixtures) => mock.reload(fixtures),
        report: (outcome) =>
          outcome.ok
            ? say(
                `fixtures reloaded from ${displayPath(fixturesPath)}: ${plural(outcome.value.orders.orders.size, 'order')}, every session reset`,
              )
            : warn(`fixtures NOT reloaded, keeping the last good state: ${outcome.error}`),
      })
    : () => {};
  const stopped = new Promise<number>((done) => {
    const stop = (signal: NodeJS.Signals) => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      stopWatching();
      void mock.close().then(async () => {
        say(`stopped (${signal})`);
        // Whatever the output cannot take within a second is lost: a stalled reader must not keep the
        // process alive (the descriptors are non-blocking, so nothing is left waiting).
        await Promise.all([out.close(), err.close()]);
        done(0);
      });
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  const exposure = exposureWarning(options.host, mock);
  if (exposure) warn(exposure);
  for (const line of banner(info, mock, keySource(options, mock), displayPath(fixturesPath), options.host)
    .trimEnd()
    .split('\n'))
    say(line);
  return stopped;
};
