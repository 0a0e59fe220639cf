/** The JSON report is exactly a {@link ConformanceResult}; a breaking change bumps `schemaVersion`. */
import type { SchemaViolation } from '../contract/index.js';

/** A failure fails the run (exit 1); a warning is reported and passes. */
export type Level = 'failure' | 'warning';

export type Outcome = 'PASS' | 'FAIL' | 'WARN' | 'SKIP';

/** `--fail-on`: which verdicts fail the run (`fail`: failures only; `warn`: warnings too). */
export type FailOn = 'fail' | 'warn';

/** A request the suite sent again because a gateway answered 429 or 503 (D22). */
export interface RetriedRequest {
  method: string;
  url: string;
  /** The first time included. */
  attempts: number;
  /** The status of each attempt that got an answer, in order: `[429, 200]`. */
  statuses: number[];
}

/** How the run treated gateway answers (D22), as printed at its start. */
export interface RetryReport {
  budgetMs: number;
  maxRetriesPerRequest: number;
  /** A longer `Retry-After` is cut to it. */
  maxWaitMs: number;
  /** Requests started per second, `null` for no pace of its own. */
  rateLimit: number | null;
  waitedMs: number;
}

/** Whether other clients changed orders while the suite ran, and how the run judged because of it (D16). */
export interface EnvironmentReport {
  /** An order no request of the suite named changed, appeared or left. */
  live: boolean;
  reason: string;
  /** Changes to orders no request of the suite named (each order once per list read that showed it). */
  changesByOthers: number;
  /** How a change no request of a step named is judged: `shared` a warning, `sole-client` a failure. */
  mode: 'shared' | 'sole-client';
  setBy: 'flag' | 'detected' | 'default';
}

/** A request as reported: the key is never in it (headers show `<redacted>`). */
export interface ReportedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  /** Repeats the request; the key is read from `$PETSTORE_API_KEY`. */
  curl: string;
}

/** What came back, or why nothing usable did. */
export interface ReportedResponse {
  /** `null` when no response arrived (time-out, reset, refused). */
  status: number | null;
  contentType: string | null;
  /** At most 500 characters, the key redacted. */
  bodyExcerpt: string;
  transportError: string | null;
}

/** One broken rule: what was sent, what was expected, what came back. */
export interface Finding {
  message: string;
  expected: string;
  request: ReportedRequest | null;
  actual: ReportedResponse | null;
  schemaViolations: SchemaViolation[];
}

export interface CheckResult {
  id: string;
  title: string;
  /** The section of the interface spec (§) or product decision (D) the check enforces. */
  citation: string;
  level: Level;
  outcome: Outcome;
  /** `null` for checks across operations. */
  operationId: string | null;
  message: string;
  /** Set for FAIL and WARN. */
  findings: Finding[];
  /** Observations that are not judged (D10 readings, which id was used). */
  notes: string[];
  /** Set for SKIP: the flag that would enable the check (`null` when none would). */
  skip: { reason: string; enableWith: string | null } | null;
  /** Pending order ids this check cancelled or may have cancelled. */
  consumedOrders: string[];
  durationMs: number;
}

export interface OperationCoverage {
  operationId: string;
  method: string;
  path: string;
  deprecated: boolean;
  /** `x-stability` (D13), `null` where the operation carries none. */
  stability: string | null;
  /** The documented statuses, and those some request of this run received. */
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

/** `interrupted`: a signal stopped the run; the checks that finished keep their verdicts. */
export type RunOutcome = 'pass' | 'fail' | 'interrupted' | StoppedOutcome;

/** A run that stopped before judging: exit 2, with every report written. */
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
  tool: 'petstore conformance' | 'petstore proxy';
  /** `info.version` of the OpenAPI document. */
  contractVersion: string;
  baseUrl: string;
  destructive: boolean;
  startedAt: string;
  durationMs: number;
  outcome: RunOutcome;
  /** What stopped an interrupted run, and where (`SIGTERM during auth.wrong-key`). */
  interrupted?: string;
  /** The `--fail-on` gate `outcome` was decided under; absent means `fail`. */
  failOn?: FailOn;
  unreachable: Unreachable | null;
  summary: ConformanceSummary;
  checks: CheckResult[];
  coverage: OperationCoverage[];
  /** At most 100 requests retried after a 429 or 503 (D22); `retriesNotListed` counts the rest. */
  retries?: RetriedRequest[];
  retriesNotListed?: number;
  retryPolicy?: RetryReport;
  /** `--no-bodies`: every `bodyExcerpt` is empty. */
  bodiesOmitted?: boolean;
  environment?: EnvironmentReport;
  /** Absent when the fuzz phase did not run. */
  fuzz?: FuzzRunReport;
}

/** The fuzz phase of a run (`fuzz.invariants`); `--seed N` replays it. */
export interface FuzzRunReport {
  seed: number;
  budget: { requests: number; timeMs: number | null };
  /** Requests sent, shrinking included. */
  sent: number;
  /** Generated ids and values replaced because a lenient reading names a listed or given order (D19). */
  replacedIds: number;
  /** Generated requests not sent: the list was not read in full, so no id was known to be safe. */
  notSent: number;
  shrinks: number;
  replay: string;
}
