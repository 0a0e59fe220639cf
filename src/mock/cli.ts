/** `petstore mock`: the mock on a port until SIGINT/SIGTERM; a user error is one line and exit code 2. */
import { once } from 'node:events';
import { watch } from 'node:fs';
import { basename, dirname, relative, resolve } from 'node:path';
import { type Contract, defaultContract } from '../contract/index.js';
import { type FlagTable, flagHelp, listenFlags, listenProblem, parseFlags, wholeNumber } from '../flags.js';
import { fail, ok, type Result } from '../result.js';
import { type Subcommand, stopSignal } from '../subcommand.js';
import { apiKeyProblem } from './auth.js';
import { parseAllowedHost, parseCorsOrigin } from './cors.js';
import { unservedOperation } from './engine.js';
import { MAX_DELAY_MS } from './faults.js';
import { DEFAULT_FIXTURES_PATH, loadFixtureFileAsync } from './fixture-files.js';
import { DEV_API_KEY, type FixtureSet } from './fixtures.js';
import { createMock, type ListenInfo, type Mock } from './index.js';
import { createLineWriter } from './line-writer.js';

export const MOCK_FLAGS = {
  ...listenFlags(
    'Port to listen on (default 4010; 0 picks a free one)',
    'Address to listen on (default 127.0.0.1; 0.0.0.0 for every interface)',
  ),
  fixtures: { arg: 'FILE', help: 'YAML or JSON fixture file (default: the built-in fixtures/default.yaml)' },
  spec: {
    arg: 'FILE',
    help: 'Serve another OpenAPI 3.1 document (YAML or JSON), such as a draft of the next version, under the path of its local servers entry (default: the built-in one)',
  },
  'api-key': {
    arg: 'KEY',
    multiple: true,
    help: `Accepted bearer key; repeat for several. Default: $PETSTORE_API_KEY, else the fixture file's apiKeys, else ${DEV_API_KEY}`,
  },
  'cors-origin': {
    arg: 'ORIGIN',
    multiple: true,
    help: 'Let pages from ORIGIN (https://app.test:8443) use the mock; repeat for several. Local pages (localhost, 127.0.0.0/8, [::1]) always may; * allows any page',
    read: parseCorsOrigin,
  },
  'allowed-host': {
    arg: 'NAME',
    multiple: true,
    help: 'Let the control endpoints (/__mock/) answer to Host NAME too (mock.lan); repeat for several. Local names always may; others get 403 (DNS rebinding)',
    read: parseAllowedHost,
  },
  delay: {
    arg: 'MS',
    help: `Wait MS milliseconds before every answer (default 0, at most ${MAX_DELAY_MS})`,
    read: wholeNumber(0, MAX_DELAY_MS),
  },
  watch: { help: 'Reload the fixture file when it changes (a broken edit keeps the last good state)' },
  quiet: { help: 'No log line per request' },
  help: { short: 'h', help: 'Show this help' },
} satisfies FlagTable;

export const MOCK_USAGE = `Usage: petstore mock [options]

Runs the stateful mock of the Pet Store Orders API v1 (docs/mock.md).

Options:
${flagHelp(MOCK_FLAGS)}
`;

/** Reads the flags; keys fall back to `PETSTORE_API_KEY` (the fixtures come later). */
export async function parseMockArgs(argv: string[], env: NodeJS.ProcessEnv) {
  const parsed = parseFlags(MOCK_FLAGS, argv);
  if (!parsed.ok) return parsed;
  const { 'api-key': flagKeys = [], spec, ...values } = parsed.value;
  const contract = spec === undefined ? ok(defaultContract()) : await chooseContract(spec);
  if (!contract.ok) return contract;
  const envKey = env.PETSTORE_API_KEY?.trim();
  const apiKeys = flagKeys.length > 0 ? flagKeys : envKey ? [envKey] : [];
  const keySource = flagKeys.length > 0 ? '--api-key' : envKey ? 'PETSTORE_API_KEY' : undefined;
  const problem = apiKeys.map((key) => apiKeyProblem(key, keySource ?? '')).find((p) => p !== undefined);
  if (problem !== undefined) return fail(problem);
  return ok({
    ...values,
    port: values.port ?? 4010,
    host: values.host ?? '127.0.0.1',
    delay: values.delay ?? 0,
    spec,
    contract: contract.value,
    apiKeys,
    keySource,
  });
}

type Say = (line: string) => void;

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

/** `--spec FILE`'s contract, when the mock can serve it; Ajv loads only then (80 ms of every start, issue 23). */
async function chooseContract(file: string): Promise<Result<Contract, string>> {
  const { loadSpecFile } = await import('../contract/spec-file.js');
  const loaded = loadSpecFile(file);
  if (!loaded.ok) return loaded;
  const unserved = unservedOperation(loaded.value);
  return unserved === undefined ? loaded : fail(`--spec ${file}: ${unserved}`);
}

/** The start-up banner: URL, keys, and curl lines to paste. */
export function banner(info: ListenInfo, mock: Mock, source: string, path: string, host = '127.0.0.1') {
  const key = mock.apiKeys[0] ?? DEV_API_KEY;
  const header = `-H 'Authorization: Bearer ${key}'`;
  const orders = [...mock.fixtures.orders.orders.values()];
  const pending = orders.find((order) => order.state === 'pending');
  return [
    `Pet Store mock listening on ${info.baseUrl}${exposed(host) ? ` (bound to ${host}: reachable from other machines)` : ''}`,
    `  fixtures: ${path} (${plural(orders.length, 'order')}, ${plural(mock.fixtures.pets.size, 'pet')})${mock.fixtures.description === undefined ? '' : `, ${JSON.stringify(mock.fixtures.description)}`}`,
    `  API key${mock.apiKeys.length > 1 ? 's: ' : ':  '}${mock.apiKeys.join(', ')} (from ${source})`,
    `  list:     curl ${header} ${info.baseUrl}/store/orders`,
    `  cancel:   curl -i -X DELETE ${header} ${info.baseUrl}/store/orders/${pending?.id ?? 1}`,
    `  state:    curl ${header} ${info.url}/__mock/state`,
    'Press Ctrl+C to stop.\n',
  ].join('\n');
}

const LOOPBACK = /^(?:localhost|::1|0:0:0:0:0:0:0:1|127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::ffff:127\..*)$/;
const exposed = (host: string) => !LOOPBACK.test(host.replace(/^\[|\]$/g, '').toLowerCase());

/** Why a valid version is not taken: no orders and no keys, where the last had some, is a half-saved file. */
function emptiedProblem(path: string, current: FixtureSet, next: FixtureSet): string | undefined {
  if (next.orders.orders.size > 0 || next.apiKeys.length > 0) return undefined;
  const orders = current.orders.orders.size;
  const keys = current.apiKeys.length;
  if (orders === 0 && keys === 0) return undefined;
  const had = orders > 0 ? plural(orders, 'order') : plural(keys, 'key');
  return `${path}: has no orders and no keys, where the last good version had ${had}; if that is what you want, restart the mock`;
}

/** `--watch`: reloads `mock` from the file at each change, saying how it went; returns the stop. */
function watchFixtureFile(path: string, contract: Contract, mock: Mock, say: Say, warn: Say): () => void {
  let timer: NodeJS.Timeout | undefined;
  let loading = false;
  let changedWhileLoading = false;
  let stopped = false;

  async function reload(): Promise<void> {
    if (loading) {
      changedWhileLoading = true;
      return;
    }
    loading = true;
    const loaded = await loadFixtureFileAsync(path, contract);
    loading = false;
    if (stopped) return;
    if (changedWhileLoading) {
      // A newer version is on disk: judge that one, not the one read meanwhile.
      changedWhileLoading = false;
      return reload();
    }
    const problem = loaded.ok ? emptiedProblem(path, mock.fixtures, loaded.value) : loaded.error.message;
    if (problem || !loaded.ok) return warn(`fixtures NOT reloaded, keeping the last good state: ${problem}`);
    mock.reload(loaded.value);
    say(
      `fixtures reloaded from ${displayPath(path)}: ${plural(loaded.value.orders.orders.size, 'order')}, every session reset`,
    );
  }

  // Watching the folder, not the file, survives editors that save by renaming a new file into place.
  const watcher = watch(dirname(path), (_event, name) => {
    if (name !== null && name !== basename(path)) return;
    clearTimeout(timer);
    timer = setTimeout(() => void reload(), 200); // a save comes as several events
  });
  return () => {
    stopped = true;
    clearTimeout(timer);
    watcher.close();
  };
}

function refuse(message: string): number {
  process.stderr.write(`petstore mock: ${message}\n`);
  return 2;
}

function displayPath(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel.startsWith('..') || rel === '' ? path : rel;
}

/** Runs `petstore mock` until a signal; resolves to the exit code. */
export const runMockCommand: Subcommand = async (argv) => {
  const parsed = await parseMockArgs(argv, process.env);
  if (!parsed.ok) return refuse(`${parsed.error}. Run \`petstore mock --help\` for usage.`);
  const options = parsed.value;
  if (options.help) {
    process.stdout.write(MOCK_USAGE);
    return 0;
  }
  const { contract } = options;
  const fixturesPath = options.fixtures === undefined ? DEFAULT_FIXTURES_PATH : resolve(options.fixtures);
  // Not process.stdout: a paused terminal would stop the server and an unread pipe would fill memory.
  const out = createLineWriter(1);
  const err = createLineWriter(2);
  const say = (line: string) => out.write(line);
  const warn = (line: string) => err.write(`petstore mock: ${line}`);
  // Whatever the output cannot take within a second is lost: a stalled reader must not keep the process alive.
  const closeOutput = () => Promise.all([out.close(), err.close()]);
  const quit = (message: string) => closeOutput().then(() => refuse(message));
  const loaded = await loadFixtureFileAsync(fixturesPath, contract);
  if (!loaded.ok) {
    const { source, message } = loaded.error;
    return quit(
      `invalid fixture file ${displayPath(source)}: ${message.slice(source.length + 2)}. Fix the file, or pass another with --fixtures FILE.`,
    );
  }
  const mock = await createMock({
    contract,
    fixtures: loaded.value,
    apiKeys: options.apiKeys,
    delayMs: options.delay,
    corsOrigins: options['cors-origin'],
    allowedHosts: options['allowed-host'],
    log: options.quiet ? undefined : say,
    // Only a --spec document lacking what the mock reads (x-petstore-cors, x-petstore-faults) fails here.
  }).catch((error: Error) => `--spec ${options.spec}: ${error.message}`);
  if (typeof mock === 'string') return quit(mock);
  const info = await mock
    .listen({ port: options.port, host: options.host })
    .catch((error: NodeJS.ErrnoException) => listenProblem(error, options.host, options.port));
  if (typeof info === 'string') return quit(info);
  // Watch and listen for signals before announcing: whoever reads the banner may act on it at once.
  const stopWatching = options.watch ? watchFixtureFile(fixturesPath, contract, mock, say, warn) : () => {};
  const signal = stopSignal();
  if (exposed(options.host)) {
    // Warns without naming the key.
    const who = mock.apiKeys.includes(DEV_API_KEY)
      ? 'the default key is public, so anyone on the network'
      : 'anyone on the network who has the key';
    warn(
      `warning: listening on ${options.host}, reachable from other machines: ${who} can read every order and change the mock's state (cancel, reset, faults, delays). Use --host 127.0.0.1 unless other machines must reach it, and then set a key of your own with --api-key.`,
    );
  }
  const keySource =
    options.keySource ??
    (mock.fixtures.apiKeys.length > 0 ? 'the fixture file' : 'the built-in development key');
  const lines = banner(info, mock, keySource, displayPath(fixturesPath), options.host).trimEnd();
  for (const line of lines.split('\n')) say(line);
  await once(signal, 'abort');
  stopWatching();
  await mock.close();
  say(`stopped (${signal.reason})`);
  await closeOutput();
  return 0;
};
