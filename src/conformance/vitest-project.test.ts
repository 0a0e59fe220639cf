/**
 * The vitest project (src/conformance/vitest.conformance.config.ts) run as implementers run it, in a child
 * process aimed at a target by the environment: a FAIL is a failed test, a SKIP a skipped one, a WARN a
 * skipped one whose reason starts with WARNING (never a ✓), and options that cannot work one failed test.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BROKEN_SERVERS } from '../../test-support/servers/broken-servers.js';
import { CORRECT_SERVERS } from '../../test-support/servers/correct-servers.js';
import { startTarget, TARGET_KEY } from '../../test-support/servers/reference-server.js';
import { CHECKS } from './checks/index.js';
import { runConformance } from './runner.js';
import { OPTIONS_TEST } from './vitest/describe-conformance.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

interface JsonReport {
  testResults: Array<{
    assertionResults: Array<{ title: string; status: string; failureMessages: string[] }>;
  }>;
}

/** Runs vitest in a child process with the json report in `outputFile`; returns the exit code and the verbose output. */
function runVitest(
  env: Record<string, string>,
  outputFile: string,
  where: string[] = ['--config', 'src/conformance/vitest.conformance.config.ts'],
): Promise<{ code: number | null; stdout: string }> {
  // The child must not inherit this run's target either.
  const cleanEnv = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST') && !k.startsWith('PETSTORE_')),
  );
  const child = spawn(
    process.execPath,
    [
      join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'),
      'run',
      ...where,
      '--reporter=json',
      '--reporter=verbose',
      `--outputFile.json=${outputFile}`,
    ],
    { cwd: ROOT, env: { ...cleanEnv, ...env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'ignore'] },
  );
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
  });
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout })));
}

function testsIn(outputFile: string) {
  const report = JSON.parse(readFileSync(outputFile, 'utf8')) as JsonReport;
  return report.testResults.flatMap((file) => file.assertionResults);
}

describe('the conformance vitest project', () => {
  it('turns each check into a test: FAIL fails, SKIP skips, the rest pass', async () => {
    const server = BROKEN_SERVERS.find((s) => s.name === 'list-id-outside-int64');
    if (!server) throw new Error('target missing');
    const target = await startTarget(server.behaviour);
    const dir = mkdtempSync(join(tmpdir(), 'conformance-vitest-'));
    try {
      const outputFile = join(dir, 'report.json');
      const { code } = await runVitest(
        { PETSTORE_BASE_URL: target.baseUrl, PETSTORE_API_KEY: TARGET_KEY, PETSTORE_SHIPPED_ORDERS: '2' },
        outputFile,
      );
      expect(code).toBe(1);
      expect(readFileSync(outputFile, 'utf8')).not.toContain(TARGET_KEY);
      const tests = testsIn(outputFile);
      expect(tests).toHaveLength(CHECKS.length);
      const status = (id: string) => tests.find((t) => t.title.startsWith(`${id}:`))?.status;
      expect(status('list.orders')).toBe('failed');
      expect(status('cancel.pending-order')).toBe('skipped');
      expect(status('cancel.shipped-order')).toBe('passed');
      expect(tests.filter((t) => t.status === 'failed')).toHaveLength(1);
      expect(tests.find((t) => t.status === 'failed')?.failureMessages.join('\n')).toMatch(
        /repeat: {3}curl /,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await target.close();
    }
  });

  it('shows a warning as a skipped test whose reason starts with WARNING, never as passed', async () => {
    const server = CORRECT_SERVERS.find((s) => s.name === 'framework-defaults');
    if (!server) throw new Error('target missing');
    const target = await startTarget(server.behaviour);
    const dir = mkdtempSync(join(tmpdir(), 'conformance-vitest-'));
    try {
      // The same read-only run in this process says which checks warn on this server.
      const judged = await runConformance({ baseUrl: target.baseUrl, apiKey: TARGET_KEY });
      const warned = judged.checks.filter((c) => c.outcome === 'WARN').map((c) => c.id);
      expect(warned.length).toBeGreaterThan(0);
      const outputFile = join(dir, 'report.json');
      const { code, stdout } = await runVitest(
        { PETSTORE_BASE_URL: target.baseUrl, PETSTORE_API_KEY: TARGET_KEY },
        outputFile,
      );
      expect(code).toBe(0);
      const tests = testsIn(outputFile);
      for (const id of warned) {
        expect(tests.find((t) => t.title.startsWith(`${id}:`))?.status, id).toBe('skipped');
        expect(stdout).toMatch(new RegExp(`^ ↓ .* > ${id.replace(/\./g, '\\.')}: .*\\[WARNING \\(`, 'm'));
      }
      expect(stdout).not.toMatch(/^ ✓ .*\[WARNING/m);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await target.close();
    }
  });

  it.each([
    [
      'an undefined baseUrl',
      'baseUrl: process.env.PETSTORE_NOT_SET as string, apiKey: "k"',
      /^baseUrl is required: a string, e\.g\. http:\/\/127\.0\.0\.1:4010\/v1, got undefined/,
    ],
    [
      'a missing key',
      'baseUrl: "http://127.0.0.1:4010/v1", apiKey: process.env.PETSTORE_NOT_SET as string',
      /^apiKey is required: a string, got undefined/,
    ],
    [
      'a check that does not exist',
      'baseUrl: "http://127.0.0.1:4010/v1", apiKey: "k", only: ["nope"]',
      /^only nope names no check/,
    ],
  ])(
    'gives %s as one failed test with the options error, before any check is registered',
    async (_label, options, message) => {
      const dir = mkdtempSync(join(tmpdir(), 'conformance-vitest-'));
      try {
        // An implementer's own test file, outside this repository's vitest projects.
        const module = join(ROOT, 'src', 'conformance', 'vitest', 'describe-conformance.ts');
        writeFileSync(
          join(dir, 'my-server.test.ts'),
          `import { describeConformance } from ${JSON.stringify(module)};\ndescribeConformance({ ${options} });\n`,
        );
        const outputFile = join(dir, 'report.json');
        const { code } = await runVitest({}, outputFile, ['--root', dir]);
        expect(code).toBe(1);
        const tests = testsIn(outputFile);
        expect(tests.map((t) => [t.title, t.status])).toEqual([[OPTIONS_TEST, 'failed']]);
        const failure = tests[0]?.failureMessages.join('\n') ?? '';
        expect(failure).toMatch(/ConformanceOptionsError/);
        expect(failure.replace(/^\w*Error: /, '')).toMatch(message);
        expect(failure).not.toMatch(/TypeError/);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );

  it('gives a project run without PETSTORE_BASE_URL as one failed test that says what to set', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'conformance-vitest-'));
    try {
      const outputFile = join(dir, 'report.json');
      const { code } = await runVitest({ PETSTORE_API_KEY: TARGET_KEY }, outputFile);
      expect(code).toBe(1);
      const tests = testsIn(outputFile);
      expect(tests.map((t) => [t.title, t.status])).toEqual([[OPTIONS_TEST, 'failed']]);
      expect(tests[0]?.failureMessages.join('\n')).toMatch(
        /set PETSTORE_BASE_URL to the target base address/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
