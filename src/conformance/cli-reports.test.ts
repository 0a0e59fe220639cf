/** The CLI's report options: --fail-on, the html reporter next to the others, and the key as given. */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CORRECT_SERVERS } from '../../test-support/servers/correct-servers.js';
import { startTarget, TARGET_KEY } from '../../test-support/servers/reference-server.js';
import { runCommand } from './test-support/cli-harness.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const run = (argv: string[], env: Record<string, string> = { PETSTORE_API_KEY: TARGET_KEY }) =>
  runCommand(argv, env);

/** A correct server whose readings raise warnings and no failure. */
const warning = CORRECT_SERVERS.find((s) => s.name === 'framework-defaults')?.behaviour;
if (!warning) throw new Error('correct server framework-defaults is missing');

async function againstWarningServer(extra: string[]) {
  const target = await startTarget(warning as NonNullable<typeof warning>);
  const dir = mkdtempSync(join(tmpdir(), 'conformance-reports-'));
  dirs.push(dir);
  try {
    const result = await run(['--base-url', target.baseUrl, '--output-dir', dir, ...extra]);
    const files = Object.fromEntries(readdirSync(dir).map((f) => [f, readFileSync(join(dir, f), 'utf8')]));
    return { ...result, files };
  } finally {
    await target.close();
  }
}

describe('--fail-on', () => {
  it('passes a run with warnings by default (exit 0) and says so', async () => {
    const { code, stdout } = await againstWarningServer([]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Warnings:$/m);
    expect(stdout).toMatch(/^PASSED: \d+ passed, 0 failed, [1-9]\d* warned/m);
  });

  it('fails the same run under --fail-on warn (exit 1), in every report', async () => {
    const { code, stdout, files } = await againstWarningServer([
      '--fail-on',
      'warn',
      ...['pretty', 'junit', 'html', 'json'].flatMap((r) => ['--reporter', r]),
    ]);
    expect(code).toBe(1);
    expect(stdout).toMatch(/^Warnings \(they fail this run: --fail-on warn\):$/m);
    expect(stdout).toMatch(
      /^FAILED: \d+ passed, 0 failed, [1-9]\d* warned.*warnings fail this run \(--fail-on warn\)$/m,
    );
    expect(files['conformance-junit.xml']).toMatch(/<failure message="WARNING [^"]*" type="warning">/);
    expect(files['conformance-junit.xml']).not.toMatch(/type="warning"\/>/);
    expect(files['conformance.html']).toMatch(/<p id="verdict" class="verdict fail">FAILED/);
  });

  // A pipeline that reads the JSON must see the verdict the exit code gives, whatever the level.
  it.each([
    ['fail', 0, 'pass', 'PASSED'],
    ['warn', 1, 'fail', 'FAILED'],
  ] as const)(
    'gives one verdict under --fail-on %s: exit %i, JSON outcome %s, every report %s',
    async (level, exit, outcome, verdict) => {
      const { code, stdout, files } = await againstWarningServer([
        '--fail-on',
        level,
        ...['pretty', 'junit', 'html', 'json'].flatMap((r) => ['--reporter', r]),
      ]);
      expect(code).toBe(exit);
      const json = JSON.parse(files['conformance.json'] ?? '{}');
      expect(json.outcome).toBe(outcome);
      expect(json.failOn).toBe(level);
      // The verdicts stay as judged: the warnings are still WARN, and no check became a FAIL.
      expect(json.summary.failed).toBe(0);
      expect(json.summary.warned).toBeGreaterThan(0);
      expect(stdout).toMatch(new RegExp(`^${verdict}: `, 'm'));
      expect(files['conformance.html']).toMatch(
        new RegExp(`<p id="verdict" class="verdict [a-z]+">${verdict}`),
      );
      expect(files['conformance-junit.xml']).toMatch(
        new RegExp(`<property name="failOn" value="${level}"/>`),
      );
      expect(files['conformance-junit.xml']).toMatch(exit === 0 ? /failures="0"/ : /failures="[1-9]\d*"/);
    },
  );
});

describe('several reporters in one run', () => {
  it('writes the json, junit and html reports together and prints the pretty one', async () => {
    const { code, stdout, files } = await againstWarningServer(
      ['pretty', 'json', 'junit', 'html'].flatMap((r) => ['--reporter', r]),
    );
    expect(code).toBe(0);
    expect(Object.keys(files).sort()).toEqual([
      'conformance-junit.xml',
      'conformance.html',
      'conformance.json',
    ]);
    expect(stdout).toMatch(/^html report: .*conformance\.html$/m);
    expect(stdout).toMatch(/^PASSED: /m);
    expect(files['conformance.html']).toMatch(/^<!doctype html>/);
  });
});

describe('the key as given', () => {
  it.each([
    ['PETSTORE_API_KEY', [], { PETSTORE_API_KEY: 'inner space-key-value' }],
    ['--api-key', ['--api-key', 'inner space-key-value'], {}],
  ] as const)(
    'refuses a key from %s that cannot be sent as given, without printing it',
    async (source, argv, env) => {
      const { code, stderr, stdout } = await run(['--base-url', 'http://h/v1', ...argv], { ...env });
      expect(code).toBe(2);
      expect(stderr).toMatch(
        new RegExp(`the API key from ${source} holds whitespace \\(U\\+0020\\) at character 6`),
      );
      expect(stderr).not.toMatch(/inner|space-key-value/);
      expect(stdout).toBe('');
    },
  );
});
