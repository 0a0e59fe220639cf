/**
 * `petstore conformance`: parses the flags, runs the suite, writes the reports. Exit codes: 0 when no
 * check failed (warnings and skips allowed, unless `--fail-on warn`), 1 when one did, 2 for a usage error,
 * an unreachable target, an environment that is not ready or a setup mistake, 130/143 when SIGINT/SIGTERM
 * stopped it. Every run that sent a request writes the reports asked for, exit 2 and signals included.
 */
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadSpecFile } from '../contract/spec-file.js';
import { redactKeys, SHORT_KEY } from '../judge/redact.js';
import { ensureDirectory } from '../judge/report/ensure-dir.js';
import { printable } from '../judge/report/finding.js';
import { applyGate, FAIL_ON, type FailOn, verdictLabel } from '../judge/report/gate.js';
import { renderHtml } from '../judge/report/html.js';
import { renderJson } from '../judge/report/json.js';
import { renderJunit } from '../judge/report/junit.js';
import { withoutBodies } from '../judge/report/omit-bodies.js';
import { renderPretty } from '../judge/report/pretty.js';
import type { ConformanceResult } from '../judge/types.js';
import { stopSignal } from '../subcommand.js';
import { sendableKey } from './api-key.js';
import { DEFAULT_SEED } from './fuzz/phase.js';
import { DEFAULT_RETRY_POLICY, describePolicy, parseDuration } from './gateway.js';
import type { ConformanceOptions } from './options.js';
import {
  ConformanceOptionsError,
  DEFAULT_TIMEOUT_MS,
  fuzzBudget,
  retryPolicy,
  runConformance,
  validateOptions,
} from './runner.js';

export const REPORTERS = ['pretty', 'json', 'junit', 'html'] as const;
export type ReporterName = (typeof REPORTERS)[number];

export const DEFAULT_OUTPUT_DIR = 'reports/conformance';
export const REPORT_FILES: Record<Exclude<ReporterName, 'pretty'>, string> = {
  json: 'conformance.json',
  junit: 'conformance-junit.xml',
  html: 'conformance.html',
};

export const HELP = `Usage: petstore conformance --base-url URL [options]

Checks that a server at URL keeps the Pet Store Orders API v1 contract (docs/conformance.md).
Read-only unless --destructive is given: without it, the only cancels of listed orders it sends are
those of the --shipped-order ids you name, which the server must refuse with 409, and malformed
spellings of them (20abc, 20.0, 020, " 20", 0x14), which it must refuse as malformed, not with 409.

Options:
  --base-url URL         the target's base address, ending in /v1 (required)
  --pending-order ID     a pending order on the target (repeatable); destructive checks cancel them
  --shipped-order ID     a shipped order on the target (repeatable); the suite asks to cancel it, also
                         without --destructive, and it must be refused with 409
  --destructive          run the checks that cancel pending orders (each consumes its own id)
  --timeout MS           per-request time limit, headers and body (default ${DEFAULT_TIMEOUT_MS}, at most 2147483647)
  --max-body-bytes N     read at most N bytes of a response body (default 1048576)
  --only CHECK           run only this check, or every check under a prefix such as "auth" (repeatable)
  --pet-id ID            a pet the target serves, for the deprecation check (default: a listed order's petId)
  --reporter NAME        pretty (default, to stdout), json, junit or html (repeatable); json, junit
                         and html are written under --output-dir
  --output-dir DIR       where json, junit and html reports go (default ${DEFAULT_OUTPUT_DIR})
  --fail-on LEVEL        fail (default): exit 1 when a check fails; warn: warnings fail the run too
  --retry-budget TIME    the most time to spend waiting to retry 429 and 503 answers while no answer
                         gets through, honouring Retry-After: 500ms, 30s, 2m or seconds (default 30s;
                         at most 5 retries per request, 10 s per wait); 0 retries only Retry-After: 0
  --rate-limit N         send at most N requests per second (default: as fast as the target answers,
                         and at most 50 per second after a 429)
  --spec FILE            judge against another OpenAPI 3.1 document (YAML or JSON), such as a draft of
                         the next version (default: the built-in one)
  --no-bodies            leave response bodies out of every report (the reports say so)
  --shared               other clients may change orders during the run (a live staging): a change to
                         an order no request of the suite named is a warning, not a failure
  --sole-client          the suite is the target's only client: every change it did not make is a
                         failure, even when it sees another client at work
                         (without either: strict until the run sees another client, then shared)
  --live-probe TIME      how far apart the two list reads before the checks are, to see other clients
                         at work: 500ms (default), 2s or 0
  --fuzz N|TIME          the fuzz phase's budget: N generated requests (default 50) or a time such as
                         10s; 0 turns it off
  --seed N|random        the fuzz phase's seed (default: a fixed one, so every run sends the same
                         requests, D23); random draws a new one; the seed is printed, and the same seed
                         against the same list sends the same requests
  --api-key KEY          the API key; prefer PETSTORE_API_KEY: a flag is visible to other users in ps
  -h, --help             show this help

The key comes from PETSTORE_API_KEY (or --api-key), trimmed of surrounding whitespace. It is redacted from
every output wherever the target echoes it as sent or in any case, JSON- or JavaScript-escaped, URL-encoded
(%uXXXX too), as HTML references (named, or numeric with or without ;), in base64 or base64url, or in hex of
either case (also layered, broken by whitespace, with zero-width characters between its characters, or in
fullwidth forms), whole or any 12 characters of it; so is the value of every access_token, api_key, apikey,
key and token query parameter. Not redacted: the key encrypted, reversed or split, in quoted-printable,
base64 of base64, an array of character codes, or another encoding not listed; --no-bodies leaves every
response body out of the reports. docs/conformance.md: "What is redacted, and what cannot be".
Exit codes: 0 no check failed (warnings and skips allowed unless --fail-on warn), 1 a check failed (or
warned, under --fail-on warn), 2 usage error, unreachable target, environment not ready (a gateway
that keeps answering 429 or 503, a firewall or gateway page instead of the API) or setup mistake (the
key refused, no list at the base URL, an http/https mismatch), 130 stopped by SIGINT, 143 by SIGTERM
(the reports say "interrupted"). Every exit after the first request writes the reports asked for, also
when stdout is closed early (| head); a usage error prints one line and writes none.
`;

export interface CommandIo {
  env: Readonly<Record<string, string | undefined>>;
  stdout: { write(text: string): unknown; isTTY?: boolean };
  stderr: { write(text: string): unknown };
  /** Aims the run at an in-process handler (tests). */
  fetch?: typeof fetch;
  /** Aborted, with the signal's name as reason, when the run must stop (SIGINT, SIGTERM). */
  signal?: AbortSignal;
  cwd?: string;
}

class UsageError extends Error {}

/** The file reports, each rendered from the (already redacted and gated) result. */
const RENDER: Record<keyof typeof REPORT_FILES, (result: ConformanceResult) => string> = {
  json: renderJson,
  junit: renderJunit,
  html: renderHtml,
};

/** The flag that sets each option, for the runner's option errors. */
const FLAGS: Record<keyof ConformanceOptions, string> = {
  baseUrl: '--base-url',
  apiKey: '--api-key',
  pendingOrders: '--pending-order',
  shippedOrders: '--shipped-order',
  destructive: '--destructive',
  timeoutMs: '--timeout',
  maxBodyBytes: '--max-body-bytes',
  only: '--only',
  petId: '--pet-id',
  fetch: 'fetch',
  contract: 'contract',
  retryBudgetMs: '--retry-budget',
  rateLimit: '--rate-limit',
  soleClient: '--sole-client',
  shared: '--shared',
  liveProbeMs: '--live-probe',
  fuzzRequests: '--fuzz',
  fuzzTimeMs: '--fuzz',
  seed: '--seed',
  signal: 'signal',
};

function positiveInteger(flag: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  if (!/^[1-9][0-9]*$/.test(raw))
    throw new UsageError(`${flag} must be a positive whole number, got ${JSON.stringify(raw)}`);
  return Number(raw);
}

function retryBudget(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_RETRY_POLICY.budgetMs;
  const ms = parseDuration(raw);
  if (ms === null) {
    throw new UsageError(
      `--retry-budget ${JSON.stringify(raw)} is not a duration; give e.g. 30s, 500ms, 2m or 0`,
    );
  }
  return ms;
}

function liveProbe(raw: string): number {
  const ms = parseDuration(raw);
  if (ms === null) {
    throw new UsageError(`--live-probe ${JSON.stringify(raw)} is not a duration; give e.g. 500ms, 2s or 0`);
  }
  return ms;
}

/** `--fuzz`: a count of requests, or a duration (`10s`, `500ms`, `2m`). */
function fuzzFlag(raw: string | undefined): Pick<ConformanceOptions, 'fuzzRequests' | 'fuzzTimeMs'> {
  if (raw === undefined) return {};
  if (/^[0-9]+$/.test(raw)) return { fuzzRequests: Number(raw) };
  const ms = /[a-z]$/.test(raw) ? parseDuration(raw) : null;
  if (ms === null || ms <= 0) {
    throw new UsageError(
      `--fuzz ${JSON.stringify(raw)} is neither a number of requests nor a time; give e.g. 50, 0 or 10s`,
    );
  }
  return { fuzzTimeMs: ms };
}

/** The seed given, the fixed default (D23), or with `random` one drawn here, so that it is printed before the first request. */
function seedFlag(raw: string | undefined): Pick<ConformanceOptions, 'seed'> {
  if (raw === undefined) return { seed: DEFAULT_SEED };
  if (raw === 'random') return { seed: Math.floor(Math.random() * 2 ** 31) };
  if (!/^[0-9]+$/.test(raw) || Number(raw) >= 2 ** 31) {
    throw new UsageError(
      `--seed must be random or a whole number from 0 to ${2 ** 31 - 1}, got ${JSON.stringify(raw)}`,
    );
  }
  return { seed: Number(raw) };
}

function rateLimit(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^[0-9]+(\.[0-9]+)?$/.test(raw) || Number(raw) <= 0) {
    throw new UsageError(
      `--rate-limit must be a positive number of requests per second, got ${JSON.stringify(raw)}`,
    );
  }
  return Number(raw);
}

interface Parsed {
  options: ConformanceOptions;
  reporters: ReporterName[];
  outputDir: string;
  failOn: FailOn;
  noBodies: boolean;
}

function parse(argv: string[], io: CommandIo): Parsed | 'help' {
  let values: ReturnType<typeof parseFlags>['values'];
  try {
    values = parseFlags(argv).values;
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  if (values.help) return 'help';
  const baseUrl = values['base-url'];
  if (!baseUrl) throw new UsageError('--base-url is required, e.g. --base-url http://127.0.0.1:4010/v1');
  const rawKey = values['api-key'] ?? io.env.PETSTORE_API_KEY;
  if (!rawKey) {
    throw new UsageError(
      'no API key: set PETSTORE_API_KEY (or pass --api-key KEY, which other users can see in ps)',
    );
  }
  const key = sendableKey(rawKey);
  if (!key.ok) {
    throw new UsageError(
      `the API key from ${values['api-key'] === undefined ? 'PETSTORE_API_KEY' : '--api-key'} ${key.error}`,
    );
  }
  const apiKey = key.value;
  const failOn = values['fail-on'] ?? 'fail';
  if (!(FAIL_ON as readonly string[]).includes(failOn)) {
    throw new UsageError(`--fail-on ${JSON.stringify(failOn)} is unknown; use ${FAIL_ON.join(' or ')}`);
  }
  const reporters = (values.reporter ?? ['pretty']).map((name) => {
    if (!(REPORTERS as readonly string[]).includes(name)) {
      throw new UsageError(`--reporter ${JSON.stringify(name)} is unknown; use ${REPORTERS.join(', ')}`);
    }
    return name as ReporterName;
  });
  const only = values.only ?? [];
  const petId = values['pet-id'];
  const pace = rateLimit(values['rate-limit']);
  const spec = values.spec === undefined ? undefined : loadSpecFile(values.spec, io.cwd);
  if (spec && !spec.ok) throw new UsageError(spec.error);
  return {
    options: {
      baseUrl,
      apiKey,
      pendingOrders: values['pending-order'] ?? [],
      shippedOrders: values['shipped-order'] ?? [],
      destructive: values.destructive ?? false,
      timeoutMs: positiveInteger('--timeout', values.timeout, DEFAULT_TIMEOUT_MS),
      maxBodyBytes: positiveInteger('--max-body-bytes', values['max-body-bytes'], 1024 * 1024),
      only,
      retryBudgetMs: retryBudget(values['retry-budget']),
      ...(pace === undefined ? {} : { rateLimit: pace }),
      ...(values['sole-client'] ? { soleClient: true } : {}),
      ...(values.shared ? { shared: true } : {}),
      ...(values['live-probe'] === undefined ? {} : { liveProbeMs: liveProbe(values['live-probe']) }),
      ...fuzzFlag(values.fuzz),
      ...seedFlag(values.seed),
      ...(petId === undefined ? {} : { petId }),
      ...(io.fetch ? { fetch: io.fetch } : {}),
      ...(io.signal ? { signal: io.signal } : {}),
      ...(spec?.ok ? { contract: spec.value } : {}),
    },
    reporters: [...new Set(reporters)],
    outputDir: resolve(io.cwd ?? process.cwd(), values['output-dir'] ?? DEFAULT_OUTPUT_DIR),
    failOn: failOn as FailOn,
    noBodies: values['no-bodies'] ?? false,
  };
}

function parseFlags(argv: string[]) {
  return parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: {
      'base-url': { type: 'string' },
      'pending-order': { type: 'string', multiple: true },
      'shipped-order': { type: 'string', multiple: true },
      destructive: { type: 'boolean' },
      timeout: { type: 'string' },
      'max-body-bytes': { type: 'string' },
      only: { type: 'string', multiple: true },
      'pet-id': { type: 'string' },
      reporter: { type: 'string', multiple: true },
      'output-dir': { type: 'string' },
      'fail-on': { type: 'string' },
      'retry-budget': { type: 'string' },
      'rate-limit': { type: 'string' },
      'no-bodies': { type: 'boolean' },
      shared: { type: 'boolean' },
      'sole-client': { type: 'boolean' },
      'live-probe': { type: 'string' },
      fuzz: { type: 'string' },
      seed: { type: 'string' },
      'api-key': { type: 'string' },
      spec: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}

/**
 * Every key the command could have been given, found before parsing so usage errors are clean too: each
 * as given and as sent (trimmed), since a target echoes the one it received.
 */
function secretsIn(argv: readonly string[], env: CommandIo['env']): string[] {
  const keys = [env.PETSTORE_API_KEY ?? ''];
  argv.forEach((arg, i) => {
    if (arg === '--api-key') keys.push(argv[i + 1] ?? '');
    else if (arg.startsWith('--api-key=')) keys.push(arg.slice('--api-key='.length));
  });
  const sent = keys.map((key) => key.trim());
  return [...new Set([...keys, ...sent])].filter((key) => key !== '');
}

/** Runs the command with injectable streams and environment; returns the exit code. */
export async function conformanceCommand(argv: string[], io: CommandIo): Promise<number> {
  // Everything written passes through here, so not even an error message can carry the key.
  const keys = secretsIn(argv, io.env);
  const clean = (text: string): string => redactKeys(text, keys);
  const out = (text: string) => io.stdout.write(clean(text));
  const err = (text: string) => io.stderr.write(clean(text));

  let parsed: Parsed | 'help';
  try {
    parsed = parse(argv, io);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    err(`petstore conformance: ${error.message}. Run \`petstore conformance --help\` for usage.\n`);
    return 2;
  }
  if (parsed === 'help') {
    out(HELP);
    return 0;
  }
  let result: Awaited<ReturnType<typeof runConformance>>;
  try {
    // Checked before anything is printed, so that an option error is the one line of a usage error.
    validateOptions(parsed.options);
    out(`${describePolicy(retryPolicy(parsed.options))}\n`);
    const fuzz = fuzzBudget(parsed.options);
    if (fuzz.requests > 0) {
      const budget =
        fuzz.timeMs === null
          ? `${fuzz.requests} generated requests`
          : `generated requests for ${fuzz.timeMs} ms`;
      out(
        `Fuzz phase: ${budget}, seed ${fuzz.seed} (replay with --seed ${fuzz.seed}; --fuzz 0 turns it off)\n`,
      );
    }
    result = await runConformance(parsed.options);
  } catch (error) {
    if (!(error instanceof ConformanceOptionsError)) throw error;
    // The runner checks the options (one place for the library, the vitest project and the CLI); here they
    // are named by their flags.
    err(
      `petstore conformance: ${error.messageFor(FLAGS[error.option])}. Run \`petstore conformance --help\` for usage.\n`,
    );
    return 2;
  }
  if (result.unreachable) {
    // The one line a CI log shows; the reports below say it too.
    err(`petstore conformance: ${printable(`${result.unreachable.message}; ${result.unreachable.hint}`)}.
`);
  }
  if (parsed.options.apiKey.length < SHORT_KEY) {
    err(
      `petstore conformance: warning: the API key is shorter than ${SHORT_KEY} characters; every occurrence of it in the output is redacted, which can hide unrelated text too.\n`,
    );
  }
  const color = io.stdout.isTTY === true && !io.env.NO_COLOR;
  // One gate decision for every report and the exit code.
  const judged = applyGate(result, parsed.failOn);
  const gated = parsed.noBodies ? withoutBodies(judged) : judged;
  if (parsed.reporters.includes('pretty')) out(renderPretty(gated, { color }));
  const files = parsed.reporters.filter((r) => r !== 'pretty');
  if (files.length > 0) {
    try {
      ensureDirectory(parsed.outputDir);
      for (const reporter of files) {
        const path = join(parsed.outputDir, REPORT_FILES[reporter]);
        // No text scrub here: the result is already redacted field by field (redactDeep), and scrubbing the
        // serialised file would also rewrite its structure when the key is short.
        writeFileSync(path, RENDER[reporter](gated));
        out(`${reporter} report: ${path}\n`);
      }
    } catch (error) {
      err(
        `petstore conformance: cannot write the reports under ${parsed.outputDir}: ${error instanceof Error ? error.message : String(error)}; check --output-dir.\n`,
      );
      return 2;
    }
    if (!parsed.reporters.includes('pretty') && !result.unreachable) {
      const s = gated.summary;
      out(
        `${verdictLabel(gated.outcome)}: ${s.passed} passed, ${s.failed} failed, ${s.warned} warned, ${s.skipped} skipped\n`,
      );
    }
  }
  if (result.interrupted) return interruptedExit(io.signal?.reason);
  if (result.unreachable) return 2;
  return gated.outcome === 'pass' ? 0 : 1;
}

/**
 * The exit code of a run a signal stopped: 128 + the signal's number, as a shell reports a process the
 * signal killed (130 for SIGINT, 143 for SIGTERM), so CI reads it as cancelled, never as a verdict.
 */
export function interruptedExit(signal: unknown): number {
  return signal === 'SIGINT' ? 130 : 143;
}

/** The `petstore conformance` subcommand. */
export async function runConformanceCommand(argv: string[]): Promise<number> {
  const signal = stopSignal();
  const code = await conformanceCommand(argv, {
    env: process.env,
    stdout: process.stdout,
    stderr: process.stderr,
    signal,
  });
  // The reports are written; what the aborted checks left (a Retry-After wait) must not hold the exit.
  if (signal.aborted) process.exit(code);
  return code;
}
