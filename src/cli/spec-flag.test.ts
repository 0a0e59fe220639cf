/**
 * `--spec FILE` as users run it: the built command (vitest's global setup builds dist/) serving and judging
 * a hand-made v2 draft, and refusing a bad document with one line and exit 2 in each command.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { v2DraftYaml } from '../../test-support/contracts/v2-draft.js';
import { packageRoot } from '../contract/package-root.js';

const bin = join(packageRoot(), 'bin', 'petstore.js');
const temp = mkdtempSync(join(tmpdir(), 'petstore-spec-'));
const KEY = 'petstore-dev-key';

const children = new Set<ChildProcess>();
afterAll(() => {
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

interface Run {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
  /** Resolves with the first match of a pattern on stdout; rejects if the process ends first. */
  waitFor: (pattern: RegExp) => Promise<RegExpMatchArray>;
}

function run(args: string[]): Run {
  const child = spawn(process.execPath, [bin, ...args], {
    cwd: temp,
    env: { ...process.env, PETSTORE_API_KEY: KEY },
  });
  children.add(child);
  let out = '';
  let err = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    out += chunk.toString('utf8');
    child.emit('output');
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    err += chunk.toString('utf8');
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const waitFor = (pattern: RegExp) =>
    new Promise<RegExpMatchArray>((resolve, reject) => {
      const check = () => {
        const match = out.match(pattern);
        if (match) {
          child.off('output', check);
          resolve(match);
        }
      };
      child.on('output', check);
      void exited.then((code) => reject(new Error(`exited ${code} before ${pattern}: ${err}`)));
      check();
    });
  return { child, stdout: () => out, stderr: () => err, exited, waitFor };
}

function file(name: string, text: string): string {
  const path = join(temp, name);
  writeFileSync(path, text);
  return path;
}

describe('petstore mock --spec serves a v2 draft, and petstore conformance --spec passes it', () => {
  let mock: Run;
  let baseUrl = '';
  const spec = file('v2.yaml', v2DraftYaml());

  beforeAll(async () => {
    mock = run(['mock', '--spec', spec, '--port', '0', '--quiet']);
    [, baseUrl = ''] = await mock.waitFor(/listening on (\S+)\n/);
  });
  afterAll(async () => {
    mock.child.kill('SIGTERM');
    expect(await mock.exited).toBe(0);
  });

  it('listens below the draft base path', () => {
    expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v2$/);
  });

  it.each([
    { query: '?limit=abc', status: 400, code: 'invalid_parameter' },
    { query: '?limit=0', status: 400, code: 'invalid_parameter' },
    { query: '?limit=5', status: 200, code: undefined },
  ])('answers GET /store/orders$query with $status', async ({ query, status, code }) => {
    const response = await fetch(`${baseUrl}/store/orders${query}`, {
      headers: { authorization: `Bearer ${KEY}` },
    });
    expect(response.status).toBe(status);
    const body = await response.json();
    if (code) expect(body).toMatchObject({ code, status });
    else expect(Array.isArray(body)).toBe(true);
  });

  it('answers 404 under /v1', async () => {
    const response = await fetch(`${baseUrl.replace(/\/v2$/, '/v1')}/store/orders`, {
      headers: { authorization: `Bearer ${KEY}` },
    });
    expect(response.status).toBe(404);
  });

  it('is passed by petstore conformance --spec', async () => {
    const suite = run(['conformance', '--spec', spec, '--base-url', baseUrl]);
    const code = await suite.exited;
    expect({ code, stderr: suite.stderr() }).toEqual({ code: 0, stderr: '' });
    expect(suite.stdout()).toMatch(/0 failed/);
  });
});

// Every bad document is refused in-process by spec-documents.test.ts; here one per command, as users run it.
describe('a bad --spec document is one line on stderr and exit 2, in every command', () => {
  const missing = join(temp, 'missing.yaml');
  it.each([
    ['mock', '--port', '0'],
    ['conformance', '--base-url', 'http://127.0.0.1:9/v2'],
    ['proxy', '--upstream', 'http://127.0.0.1:9/v2', '--port', '0'],
  ])('petstore %s refuses a file that does not exist', async (command, ...args) => {
    const child = run([command, ...args, '--spec', missing]);
    expect(await child.exited).toBe(2);
    const lines = child.stderr().trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^petstore ${command}: `));
    expect(lines[0]).toMatch(/missing\.yaml does not exist/);
    expect(child.stderr()).not.toMatch(/\n\s+at /);
  });
});
