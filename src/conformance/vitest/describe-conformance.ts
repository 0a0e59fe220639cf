// The conformance checks as vitest tests (docs/conformance.md): a WARN is a skipped test whose reason starts
// with WARNING, since vitest has no warning state and a ✓ would read as passed.
import { beforeAll, describe, it } from 'vitest';
import { findingsText, printable } from '../../judge/report/finding.js';
import type { CheckResult, ConformanceResult } from '../../judge/types.js';
import type { ConformanceOptions } from '../options.js';
import { runConformance, selectChecks, validateOptions } from '../runner.js';

/** The failure message of a check, as a test shows it. */
export function failureMessage(check: CheckResult): string {
  const details = findingsText(check.findings, '  ');
  return `${check.id} (${check.citation}): ${printable(check.message)}${details ? `\n\n${details}` : ''}`;
}

/** The test that stands for the checks when the options cannot work. */
export const OPTIONS_TEST = 'petstore conformance options';

/** Registers a vitest test per selected check, or one failing {@link OPTIONS_TEST} for wrong options. */
export function describeConformance(
  options: ConformanceOptions | (() => ConformanceOptions),
  settings: { name?: string } = {},
): void {
  const name = settings.name ?? 'petstore conformance';
  let given: ConformanceOptions;
  try {
    given = typeof options === 'function' ? options() : options;
    validateOptions(given);
  } catch (error) {
    describe(name, () => it(OPTIONS_TEST, () => Promise.reject(error)));
    return;
  }
  describe(name, () => {
    let result: ConformanceResult | undefined;
    let runError: unknown;
    beforeAll(async () => {
      try {
        result = await runConformance(given);
      } catch (error) {
        runError = error;
      }
    }, 600_000);
    for (const check of selectChecks(given.only ?? [], given.contract).checks) {
      it(`${check.id}: ${check.title} (${check.citation})`, async (ctx) => {
        if (runError) throw runError;
        if (result?.unreachable) throw new Error(`${result.unreachable.message}; ${result.unreachable.hint}`);
        const found = result?.checks.find((c) => c.id === check.id);
        if (!found) return ctx.skip('not selected');
        if (found.outcome === 'SKIP') return ctx.skip(found.message);
        if (found.outcome === 'WARN') {
          await ctx.annotate(`WARNING: ${failureMessage(found)}`, 'warning');
          return ctx.skip(`WARNING (${found.citation}): ${found.message}`);
        }
        if (found.outcome === 'FAIL') throw new Error(failureMessage(found));
      });
    }
  });
}

/** Reads the options from the PETSTORE_* variables that docs/conformance.md lists. */
export function optionsFromEnv(env: Record<string, string | undefined> = process.env): ConformanceOptions {
  const list = (value = '') => value.split(/[\s,]+/).filter((item) => item !== '');
  const baseUrl = env.PETSTORE_BASE_URL;
  if (!baseUrl)
    throw new Error('set PETSTORE_BASE_URL to the target base address, e.g. http://127.0.0.1:4010/v1');
  const apiKey = env.PETSTORE_API_KEY;
  if (!apiKey) throw new Error('set PETSTORE_API_KEY to a valid API key of the target');
  return {
    baseUrl,
    apiKey,
    pendingOrders: list(env.PETSTORE_PENDING_ORDERS),
    shippedOrders: list(env.PETSTORE_SHIPPED_ORDERS),
    destructive: env.PETSTORE_DESTRUCTIVE === '1' || env.PETSTORE_DESTRUCTIVE === 'true',
    only: list(env.PETSTORE_ONLY),
    ...(env.PETSTORE_TIMEOUT_MS ? { timeoutMs: Number(env.PETSTORE_TIMEOUT_MS) } : {}),
    ...(env.PETSTORE_PET_ID ? { petId: env.PETSTORE_PET_ID } : {}),
  };
}
