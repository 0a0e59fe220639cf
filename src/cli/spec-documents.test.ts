/**
 * A bad `--spec` document is one usage error in each command, refused before anything listens or is sent:
 * the parsers in-process (spec-flag.test.ts spawns one per command).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dump } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { v2Draft, v2DraftYaml } from '../../test-support/contracts/v2-draft.js';
import { runCommand } from '../conformance/test-support/cli-harness.js';
import { parseMockArgs } from '../mock/cli.js';
import { proxyCommand } from '../proxy/cli.js';

const temp = mkdtempSync(join(tmpdir(), 'petstore-spec-'));

function file(name: string, text: string): string {
  const path = join(temp, name);
  writeFileSync(path, text);
  return path;
}

/** The one line each command prints for a bad document, or its exit code when it is not 2. */
async function refusal(command: string, path: string): Promise<string> {
  if (command === 'mock') {
    const parsed = await parseMockArgs(['--port', '0', '--spec', path], {});
    return parsed.ok ? 'accepted' : `petstore mock: ${parsed.error}`;
  }
  let stderr = '';
  let stdout = '';
  let code: number;
  if (command === 'conformance') {
    ({ code, stderr, stdout } = await runCommand(['--base-url', 'http://127.0.0.1:9/v2', '--spec', path], {
      PETSTORE_API_KEY: 'petstore-dev-key',
    }));
  } else {
    const io = {
      stdout: { write: (t: string) => (stdout += t) },
      stderr: { write: (t: string) => (stderr += t) },
      env: {},
      stop: Promise.resolve(),
    };
    code = await proxyCommand(['--upstream', 'http://127.0.0.1:9/v2', '--port', '0', '--spec', path], io);
  }
  expect(stdout).toBe('');
  return code === 2 ? stderr.trimEnd() : `exit ${code}`;
}

describe('a bad --spec document is one line and exit 2, in every command', () => {
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
  const cases = ['mock', 'conformance', 'proxy'].flatMap((command) =>
    documents.map((document) => ({ ...document, command })),
  );
  cases.push({
    name: 'an operation the mock has no handler for',
    path: file('no-handler.yaml', dump(noHandler)),
    want: /the mock has no handler for operation getStock/,
    command: 'mock',
  });
  // The control endpoints own /__mock: a draft served there would shadow them (issue 25).
  const underControl = v2Draft() as { servers: Array<{ url: string }> };
  for (const server of underControl.servers) server.url = server.url.replace(/\/v2$/, '/__mock');
  cases.push({
    name: 'a local server under /__mock',
    path: file('under-mock.yaml', dump(underControl)),
    want: /path \/__mock\/store\/orders is under \/__mock, where the mock's control endpoints are/,
    command: 'mock',
  });

  it.each(cases)('petstore $command refuses $name', async ({ command, path, want }) => {
    const lines = (await refusal(command, path)).split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^petstore ${command}: `));
    expect(lines[0]).toMatch(want);
  });
});
