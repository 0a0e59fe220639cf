/** What `runConformance` takes, and the one table of its options that the command, its help and the checks read. */

import { type Contract, defaultContract } from '../contract/index.js';
import { type Flag, oneOf } from '../flags.js';
import { FAIL_ON } from '../judge/report/gate.js';
import { fail, ok, type Result } from '../result.js';
import { canonicalId } from './context.js';
import type { EnvironmentMode } from './environment.js';
import { DEFAULT_FUZZ_REQUESTS, DEFAULT_SEED, MAX_FUZZ_REQUESTS } from './fuzz/phase.js';
import { DEFAULT_RETRY_POLICY, parseDuration } from './gateway.js';

export interface ConformanceOptions {
  /** The target's base address, ending in the version segment: `http://127.0.0.1:4010/v1` (D12). */
  baseUrl: string;
  /** A valid API key for the target; sent as `Authorization: Bearer <key>` and never reported. */
  apiKey: string;
  /** Ids of orders that are pending on the target; destructive checks cancel some of them. */
  pendingOrders?: readonly (string | bigint)[];
  /** Ids of orders that have shipped on the target; cancelling them must be refused (409). */
  shippedOrders?: readonly (string | bigint)[];
  /** Run the checks that cancel pending orders (each consumes its own pending id). Default false. */
  destructive?: boolean;
  /** Per-request time limit in milliseconds, headers and body together. Default 10 000. */
  timeoutMs?: number;
  /** The most bytes of one response body the suite reads; the rest is aborted. Default 1 MiB. */
  maxBodyBytes?: number;
  /** Run only these checks: exact ids, or a prefix that ends at a dot (`auth` runs every `auth.*`). */
  only?: readonly string[];
  /** A pet id the target serves, for the D11 deprecation check; otherwise taken from a listed order. */
  petId?: string | bigint;
  /** The fetch to use: tests aim the suite at an in-process handler (`mock.handle`) with this. */
  fetch?: typeof fetch;
  /** The contract whose operations and `x-petstore-conformance` levels the run applies; default the built-in one. */
  contract?: Contract;
  /** The most time, in ms, spent waiting to retry 429 and 503 (D22). Default 30 000; 0 retries only `Retry-After: 0`. */
  retryBudgetMs?: number;
  /** The most requests the suite starts per second (its own pace, D22). Default: no pace of its own. */
  rateLimit?: number;
  /** The suite is the target's only client: every change it did not make is a failure (D16). Not with `shared`. */
  soleClient?: boolean;
  /** Other clients may change orders: a change no request named is a warning from the start (D16). */
  shared?: boolean;
  /** How far apart, in ms, the two list reads before the checks are (D16). Default 500. */
  liveProbeMs?: number;
  /** How many generated requests the fuzz phase sends. Default 50; 0 turns it off. */
  fuzzRequests?: number;
  /** A time limit for the fuzz phase in ms, instead of a count (`--fuzz 10s`). */
  fuzzTimeMs?: number;
  /** The fuzz phase's seed; default a fixed one, so a server gets the same verdict every run (D23). */
  seed?: number | 'random';
  /** Stops the run when aborted: the finished checks keep their verdicts, the outcome is `interrupted`. */
  signal?: AbortSignal;
}

// fetch trims a header value's ends, so the key is trimmed first; any other character outside visible ASCII
// (RFC 6750's b64token is a subset) cannot be sent as given, so it is refused.
const VISIBLE_ASCII = /^[\x21-\x7e]+$/;

/** The key to send, trimmed, or why it cannot be sent (naming the character at fault, never the key). */
export function sendableKey(raw: string): Result<string, string> {
  const value = raw.replace(/^[ \t\r\n]+|[ \t\r\n]+$/g, ''); // HTTP's whitespace, as fetch trims it
  if (value === '') return fail('is empty (or only whitespace); every check needs a valid key');
  if (VISIBLE_ASCII.test(value)) return ok(value);
  const chars = [...value];
  const index = chars.findIndex((ch) => !VISIBLE_ASCII.test(ch));
  const code = chars[index]?.codePointAt(0) ?? 0;
  const what =
    code === 0x20 || code === 0x09
      ? 'whitespace'
      : code < 0x20 || code === 0x7f
        ? 'a control character'
        : 'a non-ASCII character';
  const hex = code.toString(16).toUpperCase().padStart(4, '0');
  return fail(
    `holds ${what} (U+${hex}) at character ${index + 1} of ${chars.length} (after trimming the ends), which cannot be sent in an Authorization header as given; check the secret's value`,
  );
}

export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
const MAX_TIMEOUT_MS = 2 ** 31 - 1;
export const DEFAULT_OUTPUT_DIR = 'reports/conformance';
export const REPORTERS = ['pretty', 'json', 'junit', 'html'] as const;

/** Thrown for options a program got wrong, before anything is sent; the message names the option. */
export class ConformanceOptionsError extends Error {
  override readonly name = 'ConformanceOptionsError';

  constructor(
    readonly option: keyof ConformanceOptions,
    private readonly describe: Describe,
  ) {
    super(describe((option) => option));
  }

  /** The message with the option at fault called `name` (`--pending-order`), or each option as `name` calls it. */
  messageFor(name: string | ((option: keyof ConformanceOptions) => string)): string {
    return this.describe(typeof name === 'string' ? (o) => (o === this.option ? name : o) : name);
  }
}

type Describe = (name: (option: keyof ConformanceOptions) => string) => string;

/** Said after the option's name, or after another option's, or a whole message; `null` when all is well. */
type Problem = string | Describe | { option: keyof ConformanceOptions; text: string } | null;

interface ConformanceFlag extends Flag {
  option?: keyof ConformanceOptions;
  check?: (value: unknown, options: ConformanceOptions) => Problem;
}

function numberFrom(pattern: RegExp, what: string) {
  return (raw: string, flag: string) =>
    pattern.test(raw) ? ok(Number(raw)) : fail(`${flag} must be ${what}, got ${JSON.stringify(raw)}`);
}

const positiveWhole = numberFrom(/^[1-9][0-9]*$/, 'a positive whole number');

function duration(examples: string) {
  return (raw: string, flag: string) => {
    const ms = parseDuration(raw);
    return ms === null
      ? fail(`${flag} ${JSON.stringify(raw)} is not a duration; give e.g. ${examples}`)
      : ok(ms);
  };
}

function within(min: number, max: number, what: string, whole = false) {
  const fits = (n: number) => (whole ? Number.isSafeInteger(n) : Number.isFinite(n)) && n >= min && n <= max;
  return (value: unknown): Problem =>
    value === undefined || (typeof value === 'number' && fits(value))
      ? null
      : `must be ${what} from ${min} to ${max}, got ${String(value)}`;
}

function required(value: unknown, example = ''): Problem {
  return typeof value === 'string'
    ? null
    : `is required: a string${example}, got ${value === null ? 'null' : typeof value}`;
}

/** Canonical int64 decimals (ids are compared as text), each given once: two checks must not share an order. */
function orderIdsProblem(value: unknown, options: ConformanceOptions, shipped = false): Problem {
  const ids = ((value ?? []) as readonly (string | bigint)[]).map(String);
  const bad = ids.find((id) => canonicalId(id) === null);
  if (bad !== undefined)
    return `${JSON.stringify(bad)} is not an int64 order id (decimal digits, no plus sign or leading zeros)`;
  const twice = ids.find((id, i) => ids.indexOf(id) !== i);
  if (twice !== undefined) return `${twice} is given more than once; give each order once`;
  const pending = (options.pendingOrders ?? []).map(String);
  const both = shipped ? ids.find((id) => pending.includes(id)) : undefined;
  return both === undefined
    ? null
    : `${both} is also given as a pending order; an order is either pending or shipped`;
}

/** The options of `petstore conformance` and `runConformance`, in the order of the help and of the checks. */
export const CONFORMANCE_FLAGS = {
  'base-url': {
    arg: 'URL',
    help: "the target's base address, ending in /v1 (required)",
    option: 'baseUrl',
    // A base URL the suite can append paths to; one with credentials is never repeated.
    check: (value) => {
      if (typeof value !== 'string') return required(value, ', e.g. http://127.0.0.1:4010/v1');
      const url = URL.parse(value);
      if (url === null) {
        const shown = value.includes('@') ? '' : `${JSON.stringify(value)} `;
        return `${shown}is not a URL; give the full address, e.g. http://127.0.0.1:4010/v1`;
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:')
        return `must be an http or https address, got ${url.protocol}`;
      if (url.username !== '' || url.password !== '')
        return 'carries credentials (user:password@); remove them: the suite authenticates with the API key as a bearer token';
      // `http://h/v1?` parses to an empty search; the `?` would still end up before the paths.
      if (url.search !== '' || (url.href.split('#')[0] ?? '').includes('?'))
        return 'has a query (?…); remove it: the suite appends each path to the base URL';
      if (url.hash !== '')
        return 'has a fragment (#…); remove it: the suite appends each path to the base URL';
      return null;
    },
  },
  'api-key': {
    arg: 'KEY',
    help: 'the API key; prefer PETSTORE_API_KEY: a flag is visible to other users in ps',
    option: 'apiKey',
    check: (value) => {
      const key = typeof value === 'string' ? sendableKey(value) : null;
      return key === null ? required(value) : key.ok ? null : key.error;
    },
  },
  'pending-order': {
    arg: 'ID',
    multiple: true,
    help: 'a pending order on the target (repeatable); destructive checks cancel them',
    option: 'pendingOrders',
    check: orderIdsProblem,
  },
  'shipped-order': {
    arg: 'ID',
    multiple: true,
    help: 'a shipped order on the target (repeatable); the suite asks to cancel it, also without --destructive, and it must be refused with 409',
    option: 'shippedOrders',
    check: (value, options) => orderIdsProblem(value, options, true),
  },
  destructive: {
    help: 'run the checks that cancel pending orders (each consumes its own id)',
    option: 'destructive',
  },
  timeout: {
    arg: 'MS',
    help: `per-request time limit, headers and body (default ${DEFAULT_TIMEOUT_MS}, at most ${MAX_TIMEOUT_MS})`,
    read: positiveWhole,
    option: 'timeoutMs',
    check: (value) =>
      typeof value === 'number' && value > MAX_TIMEOUT_MS
        ? `${value} is longer than the longest timer Node can set (${MAX_TIMEOUT_MS} ms, about 24.8 days)`
        : within(1, MAX_TIMEOUT_MS, 'a number of ms')(value),
  },
  'max-body-bytes': {
    arg: 'N',
    help: `read at most N bytes of a response body (default ${DEFAULT_MAX_BODY_BYTES})`,
    read: positiveWhole,
    option: 'maxBodyBytes',
    check: within(1, Number.MAX_SAFE_INTEGER, 'a number of bytes'),
  },
  only: {
    arg: 'CHECK',
    multiple: true,
    help: 'run only this check, or every check under a prefix such as "auth" (repeatable)',
    option: 'only',
  },
  'pet-id': {
    arg: 'ID',
    help: "a pet the target serves, for the deprecation check (default: a listed order's petId)",
    option: 'petId',
  },
  reporter: {
    arg: 'NAME',
    multiple: true,
    help: 'pretty (default, to stdout), json, junit or html (repeatable); json, junit and html are written under --output-dir',
    read: oneOf(REPORTERS),
  },
  'output-dir': {
    arg: 'DIR',
    help: `where json, junit and html reports go (default ${DEFAULT_OUTPUT_DIR})`,
  },
  'fail-on': {
    arg: 'LEVEL',
    help: 'fail (default): exit 1 when a check fails; warn: warnings fail the run too',
    read: oneOf(FAIL_ON),
  },
  'retry-budget': {
    arg: 'TIME',
    help: 'the most time to spend waiting to retry 429 and 503 answers while no answer gets through, honouring Retry-After: 500ms, 30s, 2m or seconds (default 30s; at most 5 retries per request, 10 s per wait); 0 retries only Retry-After: 0',
    read: duration('30s, 500ms, 2m or 0'),
    option: 'retryBudgetMs',
    check: within(0, MAX_TIMEOUT_MS, 'a duration (ms)'),
  },
  'rate-limit': {
    arg: 'N',
    help: 'send at most N requests per second (default: as fast as the target answers, and at most 50 per second after a 429)',
    read: numberFrom(/^[0-9]+(\.[0-9]+)?$/, 'a positive number of requests per second'),
    option: 'rateLimit',
    check: (value) =>
      value === undefined || (typeof value === 'number' && Number.isFinite(value) && value > 0)
        ? null
        : `must be a positive number of requests per second, got ${String(value)}`,
  },
  spec: {
    arg: 'FILE',
    help: 'judge against another OpenAPI 3.1 document (YAML or JSON), such as a draft of the next version (default: the built-in one)',
  },
  'no-bodies': { help: 'leave response bodies out of every report (the reports say so)' },
  shared: {
    help: 'other clients may change orders during the run (a live staging): a change to an order no request of the suite named is a warning, not a failure',
    option: 'shared',
    check: (value, options) =>
      value && options.soleClient
        ? (name) =>
            `${name('shared')} and ${name('soleClient')} contradict each other; give one: shared when other clients may change orders during the run, sole-client when none does`
        : null,
  },
  'sole-client': {
    help: "the suite is the target's only client: every change it did not make is a failure, even when it sees another client at work (without either: strict until the run sees another client, then shared)",
    option: 'soleClient',
  },
  'live-probe': {
    arg: 'TIME',
    help: 'how far apart the two list reads before the checks are, to see other clients at work: 500ms (default), 2s or 0',
    read: duration('500ms, 2s or 0'),
    option: 'liveProbeMs',
    check: within(0, MAX_TIMEOUT_MS, 'a duration (ms)'),
  },
  fuzz: {
    arg: 'N|TIME',
    help: `the fuzz phase's budget: N generated requests (default ${DEFAULT_FUZZ_REQUESTS}) or a time such as 10s; 0 turns it off`,
    read: (raw: string, flag: string) => {
      if (/^[0-9]+$/.test(raw)) return ok({ fuzzRequests: Number(raw) });
      const ms = /[a-z]$/.test(raw) ? parseDuration(raw) : null;
      const neither = `${flag} ${JSON.stringify(raw)} is neither a number of requests nor a time; give e.g. 50, 0 or 10s`;
      return ms === null || ms <= 0 ? fail(neither) : ok({ fuzzTimeMs: ms });
    },
    option: 'fuzzRequests',
    check: (value, options) => {
      const time = within(1, MAX_TIMEOUT_MS, 'a duration (ms)')(options.fuzzTimeMs) as string | null;
      const count = within(0, MAX_FUZZ_REQUESTS, 'a whole number of requests', true)(value);
      return count ?? (time && { option: 'fuzzTimeMs', text: time });
    },
  },
  seed: {
    arg: 'N|random',
    help: "the fuzz phase's seed (default: a fixed one, so every run sends the same requests, D23); random draws a new one; the seed is printed, and the same seed against the same list sends the same requests",
    // Drawn here, so that the seed is printed before the first request.
    read: (raw: string, flag: string) =>
      raw === 'random'
        ? ok(Math.floor(Math.random() * 2 ** 31))
        : numberFrom(/^[0-9]+$/, `random or a whole number from 0 to ${2 ** 31 - 1}`)(raw, flag),
    option: 'seed',
    check: (value) =>
      value === 'random' ? null : within(0, 2 ** 31 - 1, 'random or a whole number', true)(value),
  },
  help: { short: 'h', help: 'show this help' },
} satisfies Record<string, ConformanceFlag>;

export type ResolvedOptions = ReturnType<typeof resolveOptions>;

/** Checks a program's options as the table says (throws ConformanceOptionsError) and fills in the defaults. */
export function resolveOptions(options: ConformanceOptions) {
  for (const { option, check } of Object.values(CONFORMANCE_FLAGS) as ConformanceFlag[]) {
    const problem = option && check?.(options[option], options);
    if (!option || !problem) continue;
    if (typeof problem === 'function') throw new ConformanceOptionsError(option, problem);
    const [at, text] = typeof problem === 'string' ? [option, problem] : [problem.option, problem.text];
    throw new ConformanceOptionsError(at, (name) => `${name(at)} ${text}`);
  }
  const fuzzTimeMs = options.fuzzTimeMs ?? null;
  return {
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    apiKey: options.apiKey.trim(), // as sendableKey trims it: the table accepted it
    pendingOrders: (options.pendingOrders ?? []).map(String),
    shippedOrders: (options.shippedOrders ?? []).map(String),
    destructive: options.destructive ?? false,
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    only: [...(options.only ?? [])],
    petId: options.petId === undefined ? null : String(options.petId),
    fetch: options.fetch ?? globalThis.fetch,
    ...(options.signal ? { signal: options.signal } : {}),
    contract: options.contract ?? defaultContract(),
    retry: {
      ...DEFAULT_RETRY_POLICY,
      budgetMs: options.retryBudgetMs ?? DEFAULT_RETRY_POLICY.budgetMs,
      rateLimit: options.rateLimit ?? null,
    },
    // D16: without a flag, strict until another client is seen.
    environment: (options.soleClient ? 'sole-client' : options.shared ? 'shared' : 'auto') as EnvironmentMode,
    liveProbeMs: options.liveProbeMs ?? 500,
    // D23: a fixed seed unless given; `random` is drawn here, so that the report can say it.
    fuzz: {
      requests: options.fuzzRequests ?? (fuzzTimeMs === null ? DEFAULT_FUZZ_REQUESTS : MAX_FUZZ_REQUESTS),
      timeMs: fuzzTimeMs,
      seed: options.seed === 'random' ? Math.floor(Math.random() * 2 ** 31) : (options.seed ?? DEFAULT_SEED),
    },
  };
}
