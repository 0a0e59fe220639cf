/** The JSON report is exactly a {@link ConformanceResult}; a breaking change bumps `schemaVersion`. */
import type { SchemaViolation } from '../contract/index.js';

/** How bad a broken rule is: a failure fails the run (exit 1); a warning is reported and passes. */
export type Level = 'failure' | 'warning';

export type Outcome = 'PASS' | 'FAIL' | 'WARN' | 'SKIP';

/** `--fail-on`: which verdicts fail the run (`fail`: failures only; `warn`: warnings too). */
export type FailOn = 'fail' | 'warn';

/** A request the suite sent again because a gateway answered 429 or 503 (D22). */
export interface RetriedRequest {
  method: string;
  /** Redacted as every reported URL is. */
  url: string;
  /** How often it was sent, the first time included. */
  attempts: number;
  /** The status of each attempt that got an answer, in order: `[429, 200]`. */
  statuses: number[];
}

/** How the run treated gateway answers (D22), as printed at its start. */
export interface RetryReport {
  /** The most time, in ms, the whole run may spend waiting before retries. */
  budgetMs: number;
  /** The most retries of one request. */
  maxRetriesPerRequest: number;
  /** The longest single wait; a longer `Retry-After` is cut to it. */
  maxWaitMs: number;
  /** The most requests the suite starts per second, `null` for no pace of its own. */
  rateLimit: number | null;
  /** The time the run spent waiting before retries. */
  waitedMs: number;
}

/** Whether other clients changed orders while the suite ran, and how the run judged because of it (D16). */
export interface EnvironmentReport {
  /** An order no request of the suite named changed, appeared or left. */
  live: boolean;
  /** What was seen, or which flag set the mode, in words. */
  reason: string;
  /** Changes to orders no request of the suite named (each order once per list read that showed it). */
  changesByOthers: number;
  /** How a change no request of a step named is judged: `shared` a warning, `sole-client` a failure. */
  mode: 'shared' | 'sole-client';
  /** `flag`: `--shared` or `--sole-client`; `detected`: the run saw another client; `default`: it saw none. */
  setBy: 'flag' | 'detected' | 'default';
}

/** A request as reported: the key is never in it (headers show `<redacted>`). */
export interface ReportedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  /** A curl line that repeats the request; the key is read from `$PETSTORE_API_KEY`. */
  curl: string;
}

/** What came back, or why nothing usable did. */
export interface ReportedResponse {
  /** The HTTP status, or `null` when no response arrived (time-out, reset, refused). */
  status: number | null;
  contentType: string | null;
  /** The start of the body (at most 500 characters), with the key redacted. */
  bodyExcerpt: string;
  /** Why no usable response arrived, when it did not. */
  transportError: string | null;
}

/** One broken rule: what was sent, what was expected, what came back. */
export interface Finding {
  message: string;
  expected: string;
  request: ReportedRequest | null;
  actual: ReportedResponse | null;
  /** The schema rules that broke, as the contract module reports them. */
  schemaViolations: SchemaViolation[];
}

export interface CheckResult {
  id: string;
  title: string;
  /** The section of the interface spec (§) or product decision (D) the check enforces. */
  citation: string;
  level: Level;
  outcome: Outcome;
  /** The operation the check exercises, `null` for checks across operations. */
  operationId: string | null;
  /** One line: why it passed, failed, warned or was skipped. */
  message: string;
  /** Set for FAIL and WARN. */
  findings: Finding[];
  /** Observations that are not judged (D10 readings, which id was used). */
  notes: string[];
  /** Set for SKIP: the reason, and the flag that would enable the check (`null` when none would). */
  skip: { reason: string; enableWith: string | null } | null;
  /** Pending order ids this check cancelled or may have cancelled (destructive checks). */
  consumedOrders: string[];
  durationMs: number;
}

export interface OperationCoverage {
  operationId: string;
  method: string;
  path: string;
  deprecated: boolean;
  /** The `x-stability` marker of the operation (D13), `null` where it carries none. */
  stability: string | null;
  /** The statuses the document lists, and those of them some request of this run received. */
  documented: number[];
  exercised: number[];
}

/** Why nothing was judged (exit 2); the name is older than its other reasons, kept for schemaVersion 1. */
export interface Unreachable {
  /** `not-ready`: a gateway answered instead of the API (D22); `no-list`: the list answered 404. */
  kind: 'unreachable' | 'not-ready' | 'tls' | 'key-refused' | 'no-list' | 'pending-unlisted';
  url: string;
  message: string;
  hint: string;
}

/** `interrupted`: a signal (SIGINT, SIGTERM) stopped the run; the checks that finished keep their verdicts. */
export type RunOutcome = 'pass' | 'fail' | 'interrupted' | StoppedOutcome;

/** The outcomes of a run that stopped before judging: exit 2, with every report written. */
export type StoppedOutcome = 'unreachable' | 'not-ready' | 'setup-error';

export interface ConformanceSummary {
  total: number;
  passed: number;
  failed: number;
  warned: number;
  skipped: number;
  /** Checks left out by `only`. */
  notSelected: number;
  requests: number;
}

export interface ConformanceResult {
  schemaVersion: 1;
  /** The tool that obtained the exchanges and wrote the report. */
  tool: 'petstore conformance' | 'petstore proxy';
  /** `info.version` of the OpenAPI document the checks come from. */
  contractVersion: string;
  baseUrl: string;
  destructive: boolean;
  startedAt: string;
  durationMs: number;
  /** `pass`: no check failed; `fail`: one did; the {@link StoppedOutcome}s judged nothing (exit 2). */
  outcome: RunOutcome;
  /** Set when the outcome is `interrupted`: what stopped the run, and where (e.g. `SIGTERM during auth.wrong-key`). */
  interrupted?: string;
  /** The `--fail-on` gate `outcome` was decided under, once applied; absent means `fail`. */
  failOn?: FailOn;
  unreachable: Unreachable | null;
  summary: ConformanceSummary;
  checks: CheckResult[];
  coverage: OperationCoverage[];
  /** The suite's requests retried after a 429 or 503 (D22), at most 100; `retriesNotListed` counts the rest. */
  retries?: RetriedRequest[];
  retriesNotListed?: number;
  /** How the suite treated gateway answers, as printed at the start of the run. */
  retryPolicy?: RetryReport;
  /** Set when the response bodies were left out (`--no-bodies`): every `bodyExcerpt` is empty. */
  bodiesOmitted?: boolean;
  /** Whether other clients were seen at work, and the mode the run judged in (D16). */
  environment?: EnvironmentReport;
  /** What the fuzz phase sent and its seed (`--seed` replays it); absent when it did not run. */
  fuzz?: FuzzRunReport;
}

/** The fuzz phase of a run (`fuzz.invariants`). */
export interface FuzzRunReport {
  seed: number;
  budget: { requests: number; timeMs: number | null };
  /** Requests sent, shrinking included. */
  sent: number;
  /** Generated ids and query or header values replaced: a lenient reading names a listed or given order (D19). */
  replacedIds: number;
  /** Generated requests not sent: the list was not read in full, so no id was known to be safe. */
  notSent: number;
  shrinks: number;
  /** The flag that replays the same requests: `--seed N`. */
  replay: string;
}
