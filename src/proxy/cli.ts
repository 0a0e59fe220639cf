/** `petstore proxy`: the validating proxy until SIGINT or SIGTERM, a line per finding, then the reports. */
import { once } from 'node:events';
import { resolve } from 'node:path';
import { loadSpecFile } from '../contract/spec-file.js';
import {
  type FlagTable,
  flagHelp,
  listenFlags,
  listenProblem,
  notBlank,
  oneOf,
  parseFlags,
  wholeNumber,
} from '../flags.js';
import { renderPretty } from '../judge/report/pretty.js';
import { FILE_REPORTERS, type FileReporter } from '../judge/report/write.js';
import { parseAllowedHost } from '../mock/cors.js';
import { stopSignal } from '../subcommand.js';
import type { ProxyInfo } from './index.js';
import { createProxy, DEFAULT_OUTPUT_DIR, DEFAULT_TIMEOUT_MS, ProxyOptionsError } from './index.js';

const REPORTERS = ['pretty', ...FILE_REPORTERS] as const;

/** The proxy's flags (docs/proxy.md, "Options"). */
export const PROXY_FLAGS = {
  upstream: { arg: 'URL', help: "the server's base URL, ending in /v1 (required)" },
  ...listenFlags(
    'port to listen on (default 4020; 0 picks a free one)',
    'address to listen on (default 127.0.0.1)',
  ),
  errors: {
    help: 'replace an answer that breaks the contract by a 502 Error naming the finding (answers are then held until judged, up to 1 MiB each)',
  },
  timeout: {
    arg: 'MS',
    help: `time limit for the upstream's status line and between chunks of its body (default ${DEFAULT_TIMEOUT_MS}); past it the client gets a 504 Error from the proxy`,
    read: wholeNumber(1, 2 ** 31 - 1),
  },
  reporter: {
    arg: 'NAME',
    multiple: true,
    help: 'pretty (default, to stdout when the proxy stops), json, junit or html (repeatable); json, junit and html are written under --output-dir',
    read: oneOf(REPORTERS),
  },
  'output-dir': {
    arg: 'DIR',
    help: `where the json, junit and html reports go (default ${DEFAULT_OUTPUT_DIR})`,
    read: notBlank(`e.g. ${DEFAULT_OUTPUT_DIR}`),
  },
  'sole-client': {
    help: 'this proxy sees every request the upstream gets: an order that vanishes or changes with no request naming it is a failure (default: a warning, since another client may have done it; D20)',
  },
  'ignore-client': {
    help: "judge only the server's answers, not the client's requests (for a client that sends malformed requests on purpose, such as `petstore conformance`)",
  },
  spec: {
    arg: 'FILE',
    help: 'judge against another OpenAPI 3.1 document (YAML or JSON), such as a draft of the next version (default: the built-in one)',
  },
  'allowed-host': {
    arg: 'NAME',
    multiple: true,
    help: 'let /__proxy/ answer to Host NAME too (repeatable); local names always may, others get 403 (DNS rebinding)',
    read: parseAllowedHost,
  },
  quiet: { help: 'no line per finding on stderr (the reports still hold every finding)' },
  'no-bodies': { help: 'leave response bodies out of the reports (they say so)' },
  record: {
    arg: 'FILE',
    help: "write the orders the upstream's lists show into FILE, a fixture file that `petstore mock --fixtures FILE` replays: states from `complete`, 409 (shipped), 204 or leaving the list (cancelled); ids exact; never the key; at most 32 MiB (past it, new orders are left out and stderr says so); rewritten whole on each change through a temporary file, so an interrupted proxy leaves a whole file",
    read: notBlank('name a file, e.g. --record staging.yaml'),
  },
  help: { short: 'h', help: 'show this help' },
} satisfies FlagTable;

export const PROXY_USAGE = `Usage: petstore proxy --upstream URL [options]

Puts the contract between a real client and a real server (docs/proxy.md): every request goes to URL as
sent, every answer comes back byte for byte, and each exchange is judged against the OpenAPI document and
the cancel rules. Findings are printed to stderr as they happen; the reports are written when the proxy
stops (Ctrl+C or SIGTERM). Clients use the proxy's address with the upstream's base path: for
--upstream http://127.0.0.1:4010/v1 and the default port, http://127.0.0.1:4020/v1.

Options:
${flagHelp(PROXY_FLAGS)}

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

/** @example await proxyCommand(['--upstream', 'http://127.0.0.1:4010/v1'], { ...io, stop }) // the exit code */
export async function proxyCommand(argv: string[], io: ProxyCommandIo): Promise<number> {
  const fail = (message: string) => {
    io.stderr.write(`petstore proxy: ${message}. Run \`petstore proxy --help\` for usage.\n`);
    return 2;
  };
  const parsed = parseFlags(PROXY_FLAGS, argv);
  if (!parsed.ok) return fail(parsed.error);
  const options = parsed.value;
  if (options.help) {
    io.stdout.write(PROXY_USAGE);
    return 0;
  }
  if (!options.upstream) return fail('--upstream is required, e.g. --upstream http://127.0.0.1:4010/v1');
  const spec = options.spec === undefined ? undefined : loadSpecFile(options.spec, io.cwd);
  if (spec && !spec.ok) return fail(spec.error);
  const reporters = [...new Set(options.reporter ?? ['pretty'])];
  const record = options.record && resolve(io.cwd ?? process.cwd(), options.record);
  const host = options.host ?? '127.0.0.1';
  const port = options.port ?? 4020;
  const line = (text: string) => io.stderr.write(`${text}\n`);
  let proxy: ReturnType<typeof createProxy>;
  try {
    proxy = createProxy({
      upstream: options.upstream,
      contract: spec?.value,
      errors: options.errors,
      judgeClient: !options['ignore-client'],
      soleClient: options['sole-client'],
      timeoutMs: options.timeout,
      reporters: reporters.filter((r): r is FileReporter => r !== 'pretty'),
      outputDir: options['output-dir'],
      bodies: !options['no-bodies'],
      record: record ? { file: record, note: line } : undefined,
      allowedHosts: options['allowed-host'],
      onFinding: options.quiet ? undefined : (_found, text) => line(text),
    });
  } catch (error) {
    if (error instanceof ProxyOptionsError) return fail(error.message);
    throw error;
  }
  const info = await proxy.listen({ port, host }).catch((error: NodeJS.ErrnoException) => error);
  if (info instanceof Error) {
    await proxy.close().catch(() => undefined);
    if (info instanceof ProxyOptionsError) return fail(info.message);
    line(`petstore proxy: ${listenProblem(info, host, port)}`);
    return 2;
  }
  io.stdout.write(
    [
      `petstore proxy: ${info.baseUrl} → ${proxy.upstream.baseUrl}${options.errors ? ' (--errors: violating answers become 502)' : ''}`,
      `  point your client at ${info.baseUrl}; findings so far: curl ${info.url}/__proxy/findings`,
      ...(record ? [`  recording the orders it sees into ${record}`] : []),
      'Press Ctrl+C to stop and write the reports.',
      '',
    ].join('\n'),
  );
  io.onListening?.(info);
  await io.stop;
  const closed = await proxy.close().catch((error: Error) => error);
  if (closed instanceof Error) {
    // The writer's one line (judge/report/write.ts) names the directory and the flag.
    line(`petstore proxy: ${closed.message}`);
    return 2;
  }
  const { result, written } = closed;
  if (reporters.includes('pretty')) {
    io.stdout.write(renderPretty(result, { color: io.stdout.isTTY === true && !io.env.NO_COLOR }));
  }
  for (const path of written) io.stdout.write(`report: ${path}\n`);
  return result.outcome === 'pass' ? 0 : 1;
}

/** The `petstore proxy` subcommand: stops on SIGINT or SIGTERM. */
export function runProxyCommand(argv: string[]): Promise<number> {
  const stop = once(stopSignal(), 'abort');
  return proxyCommand(argv, { stdout: process.stdout, stderr: process.stderr, env: process.env, stop });
}
