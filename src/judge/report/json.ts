/** The machine report: the result itself (docs/conformance.md); `schemaVersion` changes only when it breaks. */
import type { ConformanceResult } from '../types.js';

/** @example writeFileSync('conformance.json', renderJson(result)) */
export function renderJson(result: ConformanceResult): string {
  return `${JSON.stringify(result, null, 2)}\n`;
}
