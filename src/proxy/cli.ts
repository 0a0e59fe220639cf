/**
 * `petstore proxy`: runs the validating proxy until SIGINT or SIGTERM, printing one line per finding to
 * stderr as it happens, then writes the reports with the conformance suite's reporters. Exit codes: 0
 * when the server broke no rule at failure level, 1 when it did, 2 for a usage error or an unusable port.
 */
import { resolve } from 'node:path';

import { parseArgs } from 'node:util';
import type { Contract } from '../contract/index.js';
import { loadSpecFile } from '../contract/spec-file.js';
import { renderPretty } from '../judge/report/pretty.js';
import { parseAllowedHost } from '../mock/cors.js';
import { stopSignal } from '../subcommand.js';
import {
  createProxy,
  DEFAULT_OUTPUT_DIR,
  DEFAULT_TIMEOUT_MS,
  FILE_REPORTERS,
  type FileReporter,
  type ProxyInfo,
  ProxyOptionsError,
  type ValidatingProxy,
} from './index.js';

export const REPORTERS = ['pretty', ...FILE_REPORTERS] as const;
export type ReporterName = (typeof REPORTERS)[number];

export const PROXY_USAGE = `Usage: petstore proxy --upstream URL [options]

Puts the contract between a real client and a real server (docs/proxy.md): every request goes to URL as
sent, every answer comes back byte for byte, and each exchange is judged against the OpenAPI document and
the cancel rules. Findings are printed to stderr as they happen; the reports are written when the proxy
stops (Ctrl+C or SIGTERM). Clients use the proxy's address with the upstream's base path: for
--upstream http://127.0.0.1:4010/v1 and the default port, http://127.0.0.1:4020/v1.

Options:
  --upstream URL      the server's base URL, ending in /v1 (required)
  --port PORT         port to listen on (default 4020; 0 picks a free one)
  --host HOST         address to listen on (default 127.0.0.1)
  --errors            replace an answer that breaks the contract by a 502 Error naming the finding
                      (answers are then held until judged, up to 1 MiB each)
  --timeout MS        time limit for the upstream's status line and between chunks of its body
                      (default ${DEFAULT_TIMEOUT_MS}); past it the client gets a 504 Error from the proxy
  --reporter NAME     pretty (default, to stdout when the proxy stops), json, junit or html
                      (repeatable); json, junit and html are written under --output-dir
  --output-dir DIR    where the json, junit and html reports go (default ${DEFAULT_OUTPUT_DIR})
  --sole-client       this proxy sees every request the upstream gets: an order that vanishes or
                      changes with no request naming it is a failure (default: a warning, since
                      another client may have done it; D20)
  --ignore-client     judge only the server's answers, not the client's requests (for a client that
                      sends malformed requests on purpose, such as \`petstore conformance\`)
  --spec FILE         judge against another OpenAPI 3.1 document (YAML or JSON), such as a draft of the
                      next version (default: the built-in one)
  --allowed-host NAME let /__proxy/ answer to Host NAME too (repeatable); local names always may,
                      others get 403 (DNS rebinding)
  --quiet             no line per finding on stderr (the reports still hold every finding)
  --no-bodies         leave response bodies out of the reports (they say so)
  --record FILE       write the orders the upstream's lists show into FILE, a fixture file that
                      \`petstore mock --fixtures FILE\` replays: states from \`complete\`, 409 (shipped),
                      204 or leaving the list (cancelled); ids exact; never the key; at most 32 MiB
                      (past it, new orders are left out and stderr says so); rewritten whole on each
                      change through a temporary file, so an interrupted proxy leaves a whole file
  -h, --help          show this help

GET /__proxy/findings on the proxy returns the findings so far as JSON, a page at a time
(?since=N&limit=M: those after finding N, at most M, default 100; \`next\` links the next page).
API keys pass through to the upstream; outputs show a key as "key #N" and redact it where the upstream
echoes it in a form listed in docs/conformance.md ("What is redacted, and what cannot be"), and redact the
values of access_token, api_key, apikey, key and token query parameters. Not redacted: a key encrypted,
reversed or split, in quoted-printable, base64 of base64 or an array of character codes.
Exit codes: 0 no failure found, 1 the server broke a rule at failure level, 2 usage error or unusable port.
`;

export interface ProxyCommandIo {
  stdout: { write(text: string): unknown; isTTY?: boolean };
  stderr: { write(text: string): unknown };
  env: Readonly<Record<string, string | undefined>>;
  /** Resolves when the proxy should stop (a signal, in the real command). */
  stop: Promise<unknown>;
  /** Called once the proxy listens (tests learn the port here). */
  onListening?: (info: ProxyInfo) => void;
  cwd?: string;
}

class UsageError extends Error {}

interface Parsed {
  upstream: string;
  port: number;
  host: string;
  errors: boolean;
  timeoutMs: number;
  reporters: ReporterName[];
  outputDir: string;
  quiet: boolean;
  ignoreClient: boolean;
  soleClient: boolean;
  /** `--spec`: the contract to judge against; the built-in one when absent. */
  contract: Contract | undefined;
  noBodies: boolean;
  record: string | undefined;
  allowedHosts: string[];
}

function wholeNumber(
  flag: string,
  raw: string | undefined,
  fallback: number,
  min: number,
  max: number,
): number {
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new UsageError(`${flag} must be a whole number from ${min} to ${max}, got ${JSON.stringify(raw)}`);
  }
  return Number(raw);
}

function parse(argv: string[], cwd: string | undefined): Parsed | 'help' {
  let values: Record<string, string | boolean | string[] | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        upstream: { type: 'string' },
        port: { type: 'string' },
        host: { type: 'string' },
        errors: { type: 'boolean' },
        timeout: { type: 'string' },
        reporter: { type: 'string', multiple: true },
        'output-dir': { type: 'string' },
        quiet: { type: 'boolean' },
        'ignore-client': { type: 'boolean' },
        'sole-client': { type: 'boolean' },
        spec: { type: 'string' },
        'no-bodies': { type: 'boolean' },
        record: { type: 'string' },
        'allowed-host': { type: 'string', multiple: true },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    // node's messages add advice after the first sentence; the first one is the point.
    throw new UsageError((error instanceof Error ? error.message : String(error)).split(/\.(\s|$)/)[0]);
  }
  if (values.help) return 'help';
  const upstream = values.upstream as string | undefined;
  if (!upstream) throw new UsageError('--upstream is required, e.g. --upstream http://127.0.0.1:4010/v1');
  const host = (values.host as string | undefined) ?? '127.0.0.1';
  if (host.trim() === '') throw new UsageError('--host must not be empty; use 127.0.0.1 or 0.0.0.0');
  const reporters = ((values.reporter as string[] | undefined) ?? ['pretty']).map((name) => {
    if (!(REPORTERS as readonly string[]).includes(name)) {
      throw new UsageError(`--reporter ${JSON.stringify(name)} is unknown; use ${REPORTERS.join(', ')}`);
    }
    return name as ReporterName;
  });
  const outputDir = values['output-dir'] as string | undefined;
  if (outputDir !== undefined && outputDir.trim() === '')
    throw new UsageError('--output-dir must not be empty');
  const spec = values.spec === undefined ? undefined : loadSpecFile(values.spec as string, cwd);
  if (spec && !spec.ok) throw new UsageError(spec.error);
  const allowedHosts = ((values['allowed-host'] as string[] | undefined) ?? []).map((raw) => {
    const name = parseAllowedHost(raw);
    if (!name.ok) throw new UsageError(`--allowed-host: ${name.error}`);
    return name.value;
  });
  return {
    upstream,
    port: wholeNumber('--port', values.port as string | undefined, 4020, 0, 65535),
    host,
    errors: values.errors === true,
    timeoutMs: wholeNumber(
      '--timeout',
      values.timeout as string | undefined,
      DEFAULT_TIMEOUT_MS,
      1,
      2 ** 31 - 1,
    ),
    reporters: [...new Set(reporters)],
    outputDir: outputDir ?? DEFAULT_OUTPUT_DIR,
    quiet: values.quiet === true,
    ignoreClient: values['ignore-client'] === true,
    soleClient: values['sole-client'] === true,
    contract: spec?.value,
    noBodies: values['no-bodies'] === true,
    record: recordFile(values.record as string | undefined, cwd),
    allowedHosts,
  };
}

function recordFile(file: string | undefined, cwd: string | undefined): string | undefined {
  if (file === undefined) return undefined;
  if (file.trim() === '') throw new UsageError('--record must name a file, e.g. --record staging.yaml');
  return resolve(cwd ?? process.cwd(), file);
}

function listenProblem(error: NodeJS.ErrnoException, options: Parsed): string {
  switch (error.code) {
    case 'EADDRINUSE':
      return `port ${options.port} on ${options.host} is already in use. Stop the other server or pick another port with --port (0 picks a free one)`;
    case 'EACCES':
      return `no permission to listen on port ${options.port}. Pick a port above 1023 with --port`;
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `cannot listen on host "${options.host}": it is not an address of this machine. Use --host 127.0.0.1 or --host 0.0.0.0`;
    default:
      return `cannot listen on ${options.host}:${options.port} (${error.code ?? error.message}). Try another --port or --host`;
  }
}

/**
 * Runs the command with injectable streams and stop signal; returns the exit code.
 *
 * @example await proxyCommand(['--upstream', 'http://127.0.0.1:4010/v1'], { ...io, stop: signalled })
 */
export async function proxyCommand(argv: string[], io: ProxyCommandIo): Promise<number> {
  const fail = (message: string) => {
    io.stderr.write(`petstore proxy: ${message}. Run \`petstore proxy --help\` for usage.\n`);
    return 2;
  };
  let options: Parsed | 'help';
  try {
    options = parse(argv, io.cwd);
  } catch (error) {
    if (error instanceof UsageError) return fail(error.message);
    throw error;
  }
  if (options === 'help') {
    io.stdout.write(PROXY_USAGE);
    return 0;
  }
  const files = options.reporters.filter((r): r is FileReporter => r !== 'pretty');
  let proxy: ValidatingProxy;
  try {
    proxy = createProxy({
      upstream: options.upstream,
      ...(options.contract ? { contract: options.contract } : {}),
      errors: options.errors,
      judgeClient: !options.ignoreClient,
      soleClient: options.soleClient,
      timeoutMs: options.timeoutMs,
      reporters: files,
      outputDir: options.outputDir,
      bodies: !options.noBodies,
      ...(options.record
        ? { record: { file: options.record, note: (line) => io.stderr.write(`${line}\n`) } }
        : {}),
      allowedHosts: options.allowedHosts,
      ...(options.quiet ? {} : { onFinding: (_found, line) => io.stderr.write(`${line}\n`) }),
    });
  } catch (error) {
    if (error instanceof ProxyOptionsError) return fail(error.message);
    throw error;
  }
  let info: ProxyInfo;
  try {
    info = await proxy.listen({ port: options.port, host: options.host });
  } catch (error) {
    await proxy.close().catch(() => undefined);
    if (error instanceof ProxyOptionsError) return fail(error.message);
    return fail(listenProblem(error as NodeJS.ErrnoException, options));
  }
  io.stdout.write(
    [
      `petstore proxy: ${info.baseUrl} → ${proxy.upstream.baseUrl}${options.errors ? ' (--errors: violating answers become 502)' : ''}`,
      `  point your client at ${info.baseUrl}; findings so far: curl ${info.url}/__proxy/findings`,
      ...(options.record ? [`  recording the orders it sees into ${options.record}`] : []),
      'Press Ctrl+C to stop and write the reports.',
      '',
    ].join('\n'),
  );
  io.onListening?.(info);
  await io.stop;
  let closed: Awaited<ReturnType<ValidatingProxy['close']>>;
  try {
    closed = await proxy.close();
  } catch (error) {
    io.stderr.write(
      `petstore proxy: cannot write the reports under ${options.outputDir}: ${error instanceof Error ? error.message : String(error)}; check --output-dir.\n`,
    );
    return 2;
  }
  const { result, written } = closed;
  if (options.reporters.includes('pretty')) {
    io.stdout.write(renderPretty(result, { color: io.stdout.isTTY === true && !io.env.NO_COLOR }));
  }
  for (const path of written) io.stdout.write(`report: ${path}\n`);
  return result.outcome === 'pass' ? 0 : 1;
}

/** The `petstore proxy` subcommand: stops on SIGINT or SIGTERM. */
export function runProxyCommand(argv: string[]): Promise<number> {
  const signal = stopSignal();
  const stop = new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
  return proxyCommand(argv, { stdout: process.stdout, stderr: process.stderr, env: process.env, stop });
}
