import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'src/**/*.test.ts',
      'test-support/**/*.test.ts',
      'scripts/**/*.test.ts',
      'spec/**/*.test.ts',
      'bench/**/*.test.ts',
    ],
    typecheck: { enabled: true, include: ['src/**/*.test-d.ts'] },
    globalSetup: ['scripts/build-before-tests.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
