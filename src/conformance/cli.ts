/** `petstore conformance`: parses the flags, runs the suite, writes the reports; exit codes as HELP says. */
import { resolve } from 'node:path';
import { loadSpecFile } from '../contract/spec-file.js';
import { flagHelp, parseFlags } from '../flags.js';
import { redactKeys, SHORT_KEY } from '../judge/redact.js';
import { printable } from '../judge/report/finding.js';
import { applyGate, verdictLabel } from '../judge/report/gate.js';
import { withoutBodies } from '../judge/report/input.js';
import { renderPretty } from '../judge/report/pretty.js';
import { writeReports } from '../judge/report/write.js';
import type { ConformanceResult } from '../judge/types.js';
import { fail, ok } from '../result.js';
import { stopSignal } from '../subcommand.js';
import { describePolicy } from './gateway.js';
import {
  CONFORMANCE_FLAGS,
  type ConformanceOptions,
  ConformanceOptionsError,
  DEFAULT_OUTPUT_DIR,
} from './options.js';
import { runConformance, validateOptions } from './runner.js';

export const HELP = `Usage: petstore conformance --base-url URL [options]

Checks that a server at URL keeps the Pet Store Orders API v1 contract (docs/conformance.md).
Read-only unless --destructive is given: without it, the only cancels of listed orders it sends are
those of the --shipped-order ids you name, which the server must refuse with 409, and malformed
spellings of them (20abc, 20.0, 020, " 20", 0x14), which it must refuse as malformed, not with 409.

Options:
${flagHelp(CONFORMANCE_FLAGS)}

The key comes from PETSTORE_API_KEY (or --api-key), trimmed of surrounding whitespace. It is redacted from
every output, whole or any 12 characters of it, as sent and in the encodings docs/conformance.md lists ("What
is redacted, and what cannot be"), as is every access_token, api_key, apikey, key and token query parameter.
Not redacted: the key encrypted, reversed or split, in quoted-printable, base64 of base64, an array of
character codes, or another encoding not listed; --no-bodies leaves every response body out of the reports.
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
  fetch?: typeof fetch;
  /** Aborted with the signal's name as reason (SIGINT, SIGTERM). */
  signal?: AbortSignal;
  cwd?: string;
}

/** The flags as the run's options, each set by the table's `option`; the run checks them. */
function parseConformanceArgs(argv: string[], io: CommandIo) {
  const parsed = parseFlags(CONFORMANCE_FLAGS, argv);
  if (!parsed.ok) return parsed;
  const values = parsed.value;
  if (values.help) return ok('help' as const);
  if (!values['base-url']) return fail('--base-url is required, e.g. --base-url http://127.0.0.1:4010/v1');
  const apiKey = values['api-key'] ?? io.env.PETSTORE_API_KEY;
  const noKey = 'no API key: set PETSTORE_API_KEY (or pass --api-key KEY, which other users can see in ps)';
  if (!apiKey) return fail(noKey);
  const spec = values.spec === undefined ? undefined : loadSpecFile(values.spec, io.cwd);
  if (spec && !spec.ok) return spec;
  const options: Record<string, unknown> = { ...values.fuzz };
  for (const [name, flag] of Object.entries(CONFORMANCE_FLAGS)) {
    const value = values[name as keyof typeof values];
    // --fuzz reads to a count or a time, spread above.
    if ('option' in flag && value !== undefined && name !== 'fuzz') options[flag.option] = value;
  }
  return ok({
    options: {
      ...(options as Omit<ConformanceOptions, 'baseUrl' | 'apiKey'>),
      baseUrl: values['base-url'],
      apiKey,
      fetch: io.fetch,
      signal: io.signal,
      contract: spec?.ok ? spec.value : undefined,
    } satisfies ConformanceOptions,
    reporters: [...new Set(values.reporter ?? ['pretty' as const])],
    outputDir: resolve(io.cwd ?? process.cwd(), values['output-dir'] ?? DEFAULT_OUTPUT_DIR),
    failOn: values['fail-on'] ?? 'fail',
    noBodies: values['no-bodies'] ?? false,
    keyFrom: values['api-key'] === undefined ? 'PETSTORE_API_KEY' : '--api-key',
  });
}

/** The flag that sets each option, for the command line's messages; --fuzz sets both fuzz options. */
const FLAG_OF: Record<string, string> = { fuzzTimeMs: '--fuzz' };
for (const [name, flag] of Object.entries(CONFORMANCE_FLAGS))
  if ('option' in flag) FLAG_OF[flag.option] = `--${name}`;

/** Every key the command could have been given, as given and as sent (trimmed); found before parsing. */
function secretsIn(argv: readonly string[], env: CommandIo['env']): string[] {
  const keys = [env.PETSTORE_API_KEY ?? ''];
  argv.forEach((arg, i) => {
    if (arg === '--api-key') keys.push(argv[i + 1] ?? '');
    else if (arg.startsWith('--api-key=')) keys.push(arg.slice('--api-key='.length));
  });
  return [...new Set(keys.flatMap((key) => [key, key.trim()]))].filter((key) => key !== '');
}

/** Runs the command with injectable streams and environment; returns the exit code. */
export async function conformanceCommand(argv: string[], io: CommandIo): Promise<number> {
  // Everything written passes through here, so not even an error message can carry the key.
  const keys = secretsIn(argv, io.env);
  const clean = (text: string): string => redactKeys(text, keys);
  const out = (text: string) => io.stdout.write(clean(text));
  const err = (text: string) => io.stderr.write(clean(`petstore conformance: ${text}`));

  const usage = (message: string) => {
    err(`${message}. Run \`petstore conformance --help\` for usage.\n`);
    return 2;
  };
  const read = parseConformanceArgs(argv, io);
  if (!read.ok) return usage(read.error);
  const parsed = read.value;
  if (parsed === 'help') {
    out(HELP);
    return 0;
  }
  let result: ConformanceResult;
  try {
    // Checked before anything is printed, so that an option error is the one line of a usage error.
    const { retry, fuzz } = validateOptions(parsed.options).resolved;
    const { requests, timeMs, seed } = fuzz;
    out(`${describePolicy(retry)}\n`);
    const budget = timeMs === null ? `${requests} generated requests` : `generated requests for ${timeMs} ms`;
    if (requests > 0)
      out(`Fuzz phase: ${budget}, seed ${seed} (replay with --seed ${seed}; --fuzz 0 turns it off)\n`);
    result = await runConformance(parsed.options);
  } catch (error) {
    if (!(error instanceof ConformanceOptionsError)) throw error;
    return usage(
      error.messageFor((o) => (o === 'apiKey' ? `the API key from ${parsed.keyFrom}` : (FLAG_OF[o] ?? o))),
    );
  }
  const { unreachable } = result;
  if (unreachable) err(`${printable(`${unreachable.message}; ${unreachable.hint}`)}.\n`);
  if (parsed.options.apiKey.trim().length < SHORT_KEY) {
    err(
      `warning: the API key is shorter than ${SHORT_KEY} characters; every occurrence of it in the output is redacted, which can hide unrelated text too.\n`,
    );
  }
  const judged = applyGate(result, parsed.failOn);
  const gated = parsed.noBodies ? withoutBodies(judged) : judged;
  const color = io.stdout.isTTY === true && !io.env.NO_COLOR;
  if (parsed.reporters.includes('pretty')) out(renderPretty(gated, { color }));
  const files = parsed.reporters.filter((r) => r !== 'pretty');
  if (files.length > 0) {
    const { written, failure } = writeReports(parsed.outputDir, 'conformance', files, gated);
    for (const [reporter, path] of written) out(`${reporter} report: ${path}\n`);
    if (failure !== null) {
      err(`${failure}\n`);
      return 2;
    }
    if (!parsed.reporters.includes('pretty') && !result.unreachable) {
      const s = gated.summary;
      out(
        `${verdictLabel(gated.outcome)}: ${s.passed} passed, ${s.failed} failed, ${s.warned} warned, ${s.skipped} skipped\n`,
      );
    }
  }
  // Stopped by a signal: 128 + its number, as a shell reports it, so CI reads it as cancelled, not a verdict.
  if (result.interrupted) return io.signal?.reason === 'SIGINT' ? 130 : 143;
  if (result.unreachable) return 2;
  return gated.outcome === 'pass' ? 0 : 1;
}

export async function runConformanceCommand(argv: string[]): Promise<number> {
  const signal = stopSignal();
  const { env, stdout, stderr } = process;
  const code = await conformanceCommand(argv, { env, stdout, stderr, signal });
  // The reports are written; what the aborted checks left (a Retry-After wait) must not hold the exit.
  if (signal.aborted) process.exit(code);
  return code;
}
