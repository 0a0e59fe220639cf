/**
 * The vitest project (src/conformance/vitest.conformance.config.ts) run as implementers run it, in a child
 * process aimed at a broken target by the environment: a FAIL is a failed test, a SKIP a skipped one.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BROKEN_SERVERS } from '../../test-support/servers/broken-servers.js';
import { startTarget, TARGET_KEY } from '../../test-support/servers/reference-server.js';
import { CHECKS } from './checks/index.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

interface JsonReport {
  testResults: Array<{
    assertionResults: Array<{ title: string; status: string; failureMessages: string[] }>;
  }>;
}

function runVitest(env: Record<string, string>, outputFile: string): Promise<number | null> {
  const cleanEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST')));
  const child = spawn(
    process.execPath,
    [
      join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'),
      'run',
      '--config',
      'src/conformance/vitest.conformance.config.ts',
      '--reporter=json',
      `--outputFile=${outputFile}`,
    ],
    { cwd: ROOT, env: { ...cleanEnv, ...env, NO_COLOR: '1' }, stdio: 'ignore' },
  );
  return new Promise((resolve) => child.on('exit', (code) => resolve(code)));
}

describe('the conformance vitest project', () => {
  it('turns each check into a test: FAIL fails, SKIP skips, the rest pass', async () => {
    const server = BROKEN_SERVERS.find((s) => s.name === 'list-id-outside-int64');
    if (!server) throw new Error('target missing');
    const target = await startTarget(server.behaviour);
    const dir = mkdtempSync(join(tmpdir(), 'conformance-vitest-'));
    try {
      const outputFile = join(dir, 'report.json');
      const code = await runVitest(
        { PETSTORE_BASE_URL: target.baseUrl, PETSTORE_API_KEY: TARGET_KEY, PETSTORE_SHIPPED_ORDERS: '2' },
        outputFile,
      );
      expect(code).toBe(1);
      const text = readFileSync(outputFile, 'utf8');
      expect(text).not.toContain(TARGET_KEY);
      const report = JSON.parse(text) as JsonReport;
      const tests = report.testResults.flatMap((file) => file.assertionResults);
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
});
