/** The conformance suite's public API: run it from TypeScript (`runConformance`), or read its check table. */

export { REDACTED, redactDeep, redactText } from '../judge/redact.js';
export { applyGate, FAIL_ON, type FailOn, gatedOutcome, gates } from '../judge/report/gate.js';
export { type CauseGroup, groupByCause } from '../judge/report/groups.js';
export { renderHtml } from '../judge/report/html.js';
export type { ReportInput } from '../judge/report/input.js';
export { renderJson } from '../judge/report/json.js';
export { renderJunit } from '../judge/report/junit.js';
export { coverageLine, renderPretty } from '../judge/report/pretty.js';
export type * from '../judge/types.js';
export { sendableKey } from './api-key.js';
export { CHECKS, type Check, genericChecks, type Requirements } from './checks/index.js';
export {
  type ConformanceOptions,
  ConformanceOptionsError,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_TIMEOUT_MS,
} from './options.js';
export { runConformance, selectChecks, validateOptions } from './runner.js';
