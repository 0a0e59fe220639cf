/**
 * The conformance suite's public API: run it from TypeScript, or read its check table.
 *
 * @example
 * import { runConformance } from './conformance/index.js';
 * const result = await runConformance({ baseUrl: 'http://127.0.0.1:4010/v1', apiKey: 'petstore-dev-key' });
 */
export { CHECKS, type Check, type Requirements } from './checks/index.js';
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
