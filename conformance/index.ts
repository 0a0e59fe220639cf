/**
 * The conformance suite's public API: run it from TypeScript, or read its check table.
 *
 * @example
 * import { runConformance } from './conformance/index.js';
 * const result = await runConformance({ baseUrl: 'http://127.0.0.1:4010/v1', apiKey: 'petstore-dev-key' });
 */
export { sendableKey } from './api-key.js';
export { CHECKS, type Check, type Requirements } from './checks/index.js';
export { REDACTED, redactDeep, redactText } from './redact.js';
export { applyGate, FAIL_ON, type FailOn, gatedOutcome, gates } from './report/gate.js';
export { type CauseGroup, groupByCause } from './report/groups.js';
export { renderHtml } from './report/html.js';
export type { ReportInput } from './report/input.js';
export { renderJson } from './report/json.js';
export { renderJunit } from './report/junit.js';
export { coverageLine, renderPretty } from './report/pretty.js';
export {
  ConformanceOptionsError,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_TIMEOUT_MS,
  runConformance,
  selectChecks,
} from './runner.js';
export type * from './types.js';
