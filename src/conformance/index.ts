/** The conformance suite's public API: run it from TypeScript (`runConformance`), or read its check table. */

export { REDACTED, redactDeep, redactText } from '../judge/redact.js';
export { type CauseGroup, groupByCause } from '../judge/report/finding.js';
export { applyGate, FAIL_ON, gatedOutcome, gates } from '../judge/report/gate.js';
export { renderHtml } from '../judge/report/html.js';
export { coverageLine, type ReportInput, renderJson } from '../judge/report/input.js';
export { renderJunit } from '../judge/report/junit.js';
export { renderPretty } from '../judge/report/pretty.js';
export type * from '../judge/types.js';
export { CHECKS, type Check, genericChecks, type Requirements } from './checks/index.js';
export {
  type ConformanceOptions,
  ConformanceOptionsError,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_TIMEOUT_MS,
  sendableKey,
} from './options.js';
export { runConformance, selectChecks, validateOptions } from './runner.js';
