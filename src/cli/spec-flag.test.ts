/**
 * `--spec FILE` as users run it: the built command (vitest's global setup builds dist/) serving and judging
 * a hand-made v2 draft, and refusing a bad document with one line and exit 2 in each command.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dump } from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { v2Draft, v2DraftYaml } from '../../test-support/contracts/v2-draft.js';
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

describe('a bad --spec document is one line on stderr and exit 2, in every command', () => {
  const noHandler = v2Draft() as { paths: Record<string, unknown> };
  noHandler.paths['/store/stock'] = {
    get: { operationId: 'getStock', responses: { '200': { description: 'the stock' } } },
  };
  const noServers = v2Draft();
  delete noServers.servers;
  const noOperationId = v2Draft() as { paths: Record<string, Record<string, Record<string, unknown>>> };
  delete noOperationId.paths['/store/orders']?.get?.operationId;

  // Hostile documents (issue 25): none may hang or kill a command.
  const selfReferring = v2Draft() as { components: { schemas: Record<string, Record<string, unknown>> } };
  Object.assign(selfReferring.components.schemas.Order ?? {}, {
    dependentSchemas: { id: { $ref: '#/components/schemas/Order' } },
  });
  const backtracking = v2Draft() as { paths: Record<string, Record<string, { parameters?: unknown[] }>> };
  backtracking.paths['/store/orders']?.get?.parameters?.push({
    name: 'q',
    in: 'query',
    schema: { type: 'string', pattern: '^(a+)+$' },
  });
  /** `levels` lists of two aliases of the level below over a 1 KB string: 2 × levels + 2 aliases in all. */
  const aliasBomb = (levels: number) => {
    const lines = ['x-strings:', `  l0: &l0 "${'x'.repeat(1000)}"`];
    for (let level = 1; level <= levels; level++) {
      lines.push(`  l${level}: &l${level} [*l${level - 1}, *l${level - 1}]`);
    }
    return `${lines.join('\n')}\n${v2DraftYaml()}\nx-use: [*l${levels}, *l${levels}]\n`;
  };

  const documents = [
    {
      name: 'an alias bomb of 30 aliases (the cap) expanding to 32 MiB',
      path: file('bomb.yaml', aliasBomb(14)),
      want: /bomb\.yaml expands to more than 8 MiB once its aliases/,
    },
    {
      name: 'a document of 32 aliases',
      path: file('aliases.yaml', aliasBomb(15)),
      want: /aliases\.yaml is not valid YAML or JSON: aliases exceeded maxAliases \(30\)/,
    },
    {
      name: 'a schema that refers to itself for every object',
      path: file('self.yaml', dump(selfReferring)),
      want: /the document's schema Order refers to itself without reading into the value/,
    },
    {
      name: 'a pattern that backtracks exponentially',
      path: file('redos.yaml', dump(backtracking)),
      want: /the document's pattern "\^\(a\+\)\+\$" repeats a group that itself repeats/,
    },
    {
      name: 'a file that does not exist',
      path: join(temp, 'missing.yaml'),
      want: /missing\.yaml does not exist/,
    },
    {
      name: 'text that is not YAML',
      path: file('broken.yaml', 'openapi: [3.1\n'),
      want: /is not valid YAML or JSON/,
    },
    {
      name: 'a Swagger 2.0 document',
      path: file('swagger.json', '{"swagger":"2.0","paths":{}}'),
      want: /is not OpenAPI 3\.1/,
    },
    {
      name: 'an operation without operationId',
      path: file('no-id.yaml', dump(noOperationId)),
      want: /GET \/store\/orders has no operationId/,
    },
    {
      name: 'no servers entry',
      path: file('no-servers.yaml', dump(noServers)),
      want: /has no servers entry/,
    },
  ];
  const commands = [
    { command: 'mock', args: ['--port', '0'] },
    { command: 'conformance', args: ['--base-url', 'http://127.0.0.1:9/v2'] },
    { command: 'proxy', args: ['--upstream', 'http://127.0.0.1:9/v2', '--port', '0'] },
  ];
  const cases = commands.flatMap(({ command, args }) =>
    documents.map((document) => ({
      ...document,
      command,
      args: [command, ...args, '--spec', document.path],
    })),
  );
  cases.push({
    name: 'an operation the mock has no handler for',
    path: file('no-handler.yaml', dump(noHandler)),
    want: /the mock has no handler for operation getStock/,
    command: 'mock',
    args: ['mock', '--port', '0', '--spec', join(temp, 'no-handler.yaml')],
  });

  // The control endpoints own /__mock: a draft served there would shadow them (issue 25).
  const underControl = v2Draft() as { servers: Array<{ url: string }> };
  for (const server of underControl.servers) server.url = server.url.replace(/\/v2$/, '/__mock');
  cases.push({
    name: 'a local server under /__mock',
    path: file('under-mock.yaml', dump(underControl)),
    want: /path \/__mock\/store\/orders is under \/__mock, where the mock's control endpoints are/,
    command: 'mock',
    args: ['mock', '--port', '0', '--spec', join(temp, 'under-mock.yaml')],
  });

  it.each(cases)('petstore $command refuses $name', async ({ args, command, want }) => {
    const child = run(args);
    expect(await child.exited).toBe(2);
    const lines = child.stderr().trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^petstore ${command}: `));
    expect(lines[0]).toMatch(want);
    expect(child.stderr()).not.toMatch(/\n\s+at /);
  });
});
