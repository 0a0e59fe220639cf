import { configDefaults, defineConfig } from 'vitest/config';

/**
 * The slow proofs: whole-suite runs against every proof server, Chromium, the packed tarball, the CLI run
 * dozens of times. `npm test` leaves them out so that a developer's check after every change takes under a
 * minute (issue 23); `npm run test:full` runs them, and so does CI.
 */
const SLOW = [
  '**/*.slow.test.ts',
  'scripts/pack-and-install.test.ts',
  'src/conformance/read-only.test.ts',
  'src/conformance/broken-servers.test.ts',
  'src/conformance/correct-servers.test.ts',
  'src/conformance/cli-redaction.test.ts',
  'src/conformance/robustness.test.ts',
  'src/conformance/vitest-project.test.ts',
  'src/conformance/fuzz/phase.test.ts',
  'src/conformance/fuzz/every-door.test.ts',
  'src/conformance/live-environment.test.ts',
  'src/proxy/limits.test.ts',
  'src/proxy/flood.test.ts',
  'src/proxy/mock.test.ts',
  'src/proxy/proofs.test.ts',
  // The command lines, spawned dozens of times each
  'src/mock/cli.test.ts',
  'src/cli/spec-flag.test.ts',
  'src/conformance/cli.test.ts',
  'src/conformance/cli-reports.test.ts',
  'src/conformance/cli-environment.test.ts',
  'src/conformance/cli-exits.test.ts',
  // Chromium
  'src/judge/report/html.test.ts',
  'src/mock/browser.test.ts',
  'src/mock/browser-origins.test.ts',
  'src/mock/inspector.test.ts',
  'src/msw/browser-*.test.ts',
  'src/proxy/live-page.test.ts',
];

export default defineConfig({
  test: {
    globalSetup: ['scripts/build-before-tests.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'fast',
          include: [
            'src/**/*.test.ts',
            'test-support/**/*.test.ts',
            'scripts/**/*.test.ts',
            'spec/**/*.test.ts',
            'bench/**/*.test.ts',
          ],
          exclude: [...configDefaults.exclude, ...SLOW],
          // One module cache for all files: importing the contract and its validators once instead of once
          // per file halves the CPU a run costs. The type tests (*.test-d.ts) are checked by `tsc --noEmit`.
          isolate: false,
        },
      },
      { extends: true, test: { name: 'slow', include: SLOW } },
    ],
  },
});
