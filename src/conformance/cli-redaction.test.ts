/**
 * The key never reaches a report, in any form: one echoing target per form (robustness-servers.ts), each
 * run through the runner and rendered by every reporter, and every byte is searched for the form the target
 * sent. One run through the CLI proves that what it writes is as clean.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startTarget } from '../../test-support/servers/reference-server.js';
import { ECHO_FORMS, ECHO_KEY, echoesKey } from '../../test-support/servers/robustness-servers.js';
import { runSuiteAgainst } from '../../test-support/servers/run-suite.js';
import { base64Forms, FRAGMENT_CHARS } from '../judge/key-forms.js';
import { renderHtml } from '../judge/report/html.js';
import { renderJson } from '../judge/report/input.js';
import { renderJunit } from '../judge/report/junit.js';
import { renderPretty } from '../judge/report/pretty.js';
import { runCommand } from './test-support/cli-harness.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function runAgainst(
  encode: (key: string) => string,
  env: Record<string, string>,
  flags: string[] = [],
) {
  const dir = mkdtempSync(join(tmpdir(), 'conformance-echo-'));
  dirs.push(dir);
  const target = await startTarget(echoesKey(ECHO_KEY, encode));
  try {
    // No fuzz phase: its requests are the checks' own, echoed the same way.
    const argv = ['--base-url', target.baseUrl, '--shipped-order', '2', '--fuzz', '0', '--output-dir', dir];
    argv.push(...flags);
    for (const reporter of ['pretty', 'json', 'junit', 'html']) argv.push('--reporter', reporter);
    const { code, stdout, stderr } = await runCommand(argv, env);
    const files = Object.fromEntries(readdirSync(dir).map((f) => [f, readFileSync(join(dir, f), 'utf8')]));
    return { code, outputs: { stdout, stderr, ...files } as Record<string, string> };
  } finally {
    await target.close();
  }
}

/** The runs of `length` characters of a text, starting every `step`. */
const runs = (text: string, length: number, step = 1) =>
  Array.from({ length: Math.floor((text.length - length) / step) + 1 }, (_, i) =>
    text.slice(i * step, i * step + length),
  );

/** Every run of FRAGMENT_CHARS characters of the key. */
const pieces = runs(ECHO_KEY, FRAGMENT_CHARS);
/** Every run of FRAGMENT_CHARS bytes of the key in hex (lower case), and in base64 at each alignment. */
const hexPieces = runs(Buffer.from(ECHO_KEY).toString('hex'), 2 * FRAGMENT_CHARS, 2);
const base64Pieces = base64Forms(ECHO_KEY).flatMap((form) => runs(form, (FRAGMENT_CHARS / 3) * 4));

/**
 * An output as a reader would decode it, without the redaction code: compatibility forms folded (NFKC),
 * and whitespace, invisible characters and the escapes reports write for line breaks dropped.
 */
const flat = (text: string) =>
  text
    .normalize('NFKC')
    .replace(/\\[nrt]|\\u200b/g, '')
    .replace(/[\s\u00ad\u200b-\u200f\u2060\ufeff]/g, '');

/** Asserts that no output holds the echoed form, a piece of the key, or a piece of its hex or base64. */
function expectNoKey(outputs: Record<string, string>, echoed: string): void {
  for (const [name, text] of Object.entries(outputs)) {
    expect(text, name).not.toContain(echoed);
    for (const piece of pieces) expect(text, `${name}: ${piece}`).not.toContain(piece);
    const folded = flat(text);
    for (const piece of pieces) expect(folded, `${name}, folded: ${piece}`).not.toContain(piece);
    for (const piece of base64Pieces) expect(folded, `${name}, base64: ${piece}`).not.toContain(piece);
    const lower = folded.toLowerCase();
    for (const piece of hexPieces) expect(lower, `${name}, hex: ${piece}`).not.toContain(piece);
  }
}

describe('a target that echoes the key it received never gets it into a report', () => {
  it.each(ECHO_FORMS.map((f) => [f.form, f.encode] as const))('echoed %s', async (_form, encode) => {
    // The key as a secret file gives it, with a trailing newline: the suite sends it trimmed. The fuzz phase
    // sends nothing the checks do not: the echo is the same in every answer.
    const result = await runSuiteAgainst(echoesKey(ECHO_KEY, encode), {
      apiKey: `${ECHO_KEY}\n`,
      destructive: false,
      pendingOrders: [],
      shippedOrders: ['2'],
      fuzzRequests: 0,
    });
    expect(result.outcome).toBe('fail');
    // The echo did reach the reports: list.orders shows the body it failed on, redacted.
    const list = result.checks.find((c) => c.id === 'list.orders');
    expect(list?.outcome).toBe('FAIL');
    expect(list?.findings[0]?.actual?.bodyExcerpt).toContain('<redacted>');
    const outputs = {
      pretty: renderPretty(result, { color: false }),
      json: renderJson(result),
      junit: renderJunit(result),
      html: renderHtml(result),
    };
    expectNoKey(outputs, encode(ECHO_KEY));
  });

  it('nor into anything the command writes', async () => {
    const { code, outputs } = await runAgainst((k) => k, { PETSTORE_API_KEY: `${ECHO_KEY}\n` });
    expect(code).toBe(1);
    expect(Object.keys(outputs).sort()).toEqual(
      ['conformance-junit.xml', 'conformance.html', 'conformance.json', 'stderr', 'stdout'].sort(),
    );
    const json = JSON.parse(outputs['conformance.json'] ?? '{}');
    const list = json.checks.find((c: { id: string }) => c.id === 'list.orders');
    expect(list.outcome).toBe('FAIL');
    expect(list.findings[0].actual.bodyExcerpt).toContain('<redacted>');
    expectNoKey(outputs, ECHO_KEY);
  });
});

describe('a key with whitespace around it is sent trimmed', () => {
  it('passes the auth checks of a target that accepts only the trimmed key', async () => {
    const { outputs } = await runAgainst((k) => k, { PETSTORE_API_KEY: `  ${ECHO_KEY}\r\n` }, [
      '--only',
      'auth',
    ]);
    const json = JSON.parse(outputs['conformance.json'] ?? '{}');
    const auth = json.checks.filter((c: { id: string }) => c.id.startsWith('auth.'));
    expect(auth.length).toBeGreaterThan(5);
    for (const check of auth) expect(check.outcome, check.id).not.toBe('FAIL');
  });
});

describe('--no-bodies leaves every response body out of every report', () => {
  // The echoing target's list body: a form no redaction knows (the key reversed) inside an order.
  const reversed = (k: string) => [...k].reverse().join('');
  const listBody = '"petId":10,"quantity":1,"complete":false';

  it('writes no body excerpt, and each report says the bodies were left out', async () => {
    const { code, outputs } = await runAgainst(reversed, { PETSTORE_API_KEY: ECHO_KEY }, ['--no-bodies']);
    expect(code).toBe(1);
    const json = JSON.parse(outputs['conformance.json'] ?? '{}');
    expect(json.bodiesOmitted).toBe(true);
    const findings = json.checks.flatMap(
      (c: { findings: { actual: { bodyExcerpt: string } | null }[] }) => c.findings,
    );
    expect(findings.length).toBeGreaterThan(0);
    for (const f of findings) if (f.actual) expect(f.actual.bodyExcerpt).toBe('');
    expect(outputs.stdout).not.toMatch(/^ +body: /m);
    expect(outputs['conformance.html']).not.toContain('<dt>body</dt>');
    expect(outputs['conformance-junit.xml']).not.toMatch(/^body: /m);
    for (const name of ['stdout', 'conformance.html', 'conformance-junit.xml']) {
      expect(outputs[name], name).toContain('Response bodies are left out of this report (--no-bodies).');
    }
    for (const [name, text] of Object.entries(outputs)) {
      expect(text.replace(/\\"|&quot;/g, '"'), name).not.toContain(listBody);
    }
  });

  it('without it, the same bodies are in the reports (the test above can fail)', async () => {
    const { outputs } = await runAgainst(reversed, { PETSTORE_API_KEY: ECHO_KEY });
    expect(outputs.stdout).toMatch(/^ +body: /m);
    expect(outputs.stdout).toContain(listBody);
    expect(JSON.parse(outputs['conformance.json'] ?? '{}').bodiesOmitted).toBeUndefined();
  });
});
