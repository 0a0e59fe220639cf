/**
 * The machine report: the {@link ConformanceResult} itself, documented field by field in
 * docs/conformance.md and in src/judge/types.ts. `schemaVersion` changes only on a breaking change.
 */
import type { ConformanceResult } from '../types.js';

/** @example writeFileSync('conformance.json', renderJson(result)) */
export function renderJson(result: ConformanceResult): string {
  return `${JSON.stringify(result, null, 2)}\n`;
}
