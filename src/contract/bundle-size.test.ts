/**
 * Size budgets of what a page loads (issue 16): each entry bundled for a browser, minified, gzip -9. A
 * budget is a bound, not a timing: the figures are deterministic for a given tree, and docs/benchmarks.md
 * records them. Raising a budget is a decision to write down there, with the reason.
 */
import { describe, expect, it } from 'vitest';
import { bundleForPage } from './test-support/page-bundle.js';

/** Modules that belong to the contract: the document, its validators, and what assembles them. */
const isContract = (input: string) =>
  input.startsWith('src/generated/') || /^src\/contract\/(?:contract|build|validators)\.ts$/.test(input);

describe('what a page pays, gzipped', () => {
  const cases = [
    {
      // Issue 16: 20 kB, read as every budget here is (kB = 1,024 B). 20,361 B on branch contract-report (issue 23).
      name: 'the MSW entry, msw left out, stays within 20 kB',
      given: 'src/msw/index.ts',
      budget: 20 * 1024,
    },
    {
      name: 'the typed client entry (openapi-fetch included) stays within 5 kB',
      given: 'src/client/index.ts',
      budget: 5 * 1024,
    },
    {
      name: 'checking an id with parseInt64 from /client stays within 2 kB',
      given: { source: "import { parseInt64 } from './src/client/index.ts'; console.log(parseInt64('1'));" },
      budget: 2 * 1024,
    },
    {
      name: 'checking an id with isInt64String from /contract/int64 stays within 2 kB',
      given: {
        source: "import { isInt64String } from './src/contract/int64.ts'; console.log(isInt64String('1'));",
      },
      budget: 2 * 1024,
    },
  ];
  it.each(cases)('$name', async ({ given, budget }) => {
    const { gzipBytes } = await bundleForPage(given);
    expect(gzipBytes).toBeGreaterThan(0);
    expect(gzipBytes).toBeLessThanOrEqual(budget);
  });

  it.each([
    "import { parseInt64 } from './src/client/index.ts'; console.log(parseInt64('1'));",
    "import { isInt64String } from './src/contract/int64.ts'; console.log(isInt64String('1'));",
  ])('checking an id does not pull the contract in: %s', async (source) => {
    expect((await bundleForPage({ source })).inputs.filter(isContract)).toEqual([]);
  });

  it('a page that uses the contract does pull it in, over the budget (the checks can fail)', async () => {
    const page = await bundleForPage({
      source: "import { defaultContract } from './src/contract/index.ts'; console.log(defaultContract());",
    });
    expect(page.inputs.filter(isContract)).toContain('src/generated/document.ts');
    expect(page.gzipBytes).toBeGreaterThan(2 * 1024);
  });
});
