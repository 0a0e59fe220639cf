/**
 * Redocly lints the document (the `recommended` rules of redocly.yaml, held to no errors and no warnings).
 * It runs as a test rather than a step of `npm test` so that its own output, including the boxed Node 20
 * end-of-life notice it prints on every run under Node 20, shows only when the lint fails.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../src/contract/package-root.js';

const ROOT = packageRoot();
const REDOCLY = join(ROOT, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');

function lint(): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [REDOCLY, 'lint', join(ROOT, 'spec', 'openapi.yaml'), '--format', 'stylish'],
      { cwd: ROOT, env: { ...process.env, NO_COLOR: '1', REDOCLY_TELEMETRY: 'off' }, timeout: 60_000 },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code ?? 1) : 0, output: `${stdout}${stderr}` }),
    );
  });
}

describe('spec/openapi.yaml', () => {
  it('passes redocly lint with no errors and no warnings', async () => {
    const { code, output } = await lint();
    expect(code, output).toBe(0);
    expect(output, output).not.toMatch(/\d+ (errors?|warnings?)\b/);
  });
});
