/**
 * The package as its consumers get it: a copy of the project is packed (`npm pack`, which runs `prepack`,
 * which builds), publint and attw judge the tarball, and the tarball is installed into an empty project
 * whose files then use it the way a user would: the `petstore` command, an ESM file importing every
 * subpath, and a TypeScript file checked against the published types under `bundler` and `node16`.
 *
 * One pack and one install serve every case. The install reads the npm cache that the project's own
 * `npm ci` filled; the dependencies are pinned, so it installs the lockfile's versions.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../src/contract/package-root.js';
import { childEnv, expectSuccess, INSTALL_FLAGS, type Packed, packProject, run } from './packed-tarball.js';

const ROOT = packageRoot();
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  exports: Record<string, string>;
  devDependencies: Record<string, string>;
};
/** The subpaths that are JavaScript modules (the others are files: the document and the fixtures). */
const MODULE_SUBPATHS = Object.entries(manifest.exports)
  .filter(([, target]) => target.endsWith('.js'))
  .map(([subpath]) => (subpath === '.' ? manifest.name : `${manifest.name}/${subpath.slice(2)}`));

const CONSUMER_TS = `
import {
  createMock,
  createPetstoreClient,
  runConformance,
  type Order,
} from 'petstore-contract-toolkit';
import { DEFAULT_FIXTURES_PATH, type Mock } from 'petstore-contract-toolkit/mock';
import { type ApiError, type Int64String, type PetstoreClient } from 'petstore-contract-toolkit/client';
import { parseExactJson, stringifyExactJson } from 'petstore-contract-toolkit/contract';
import { type ConformanceResult, CHECKS } from 'petstore-contract-toolkit/conformance';
import { describeConformance } from 'petstore-contract-toolkit/conformance/vitest';
import defaultFixtures, { type DefaultFixtures } from 'petstore-contract-toolkit/fixtures';
import { createHandlers, type Inspector, type MockControl, type MockHandlers } from 'petstore-contract-toolkit/msw';
import { inspector } from 'petstore-contract-toolkit/msw/inspector';
import { inSessionStorage } from 'petstore-contract-toolkit/msw/persist';
import { createProxy } from 'petstore-contract-toolkit/proxy';
import { setupServer } from 'msw/node';

export const proxy = createProxy({ upstream: 'http://127.0.0.1:4010/v1' });

const handlers: MockHandlers = createHandlers({ fixtures: { orders: [] }, baseUrl: 'http://api.test/v1' });
export const server = setupServer(...handlers);
export const control: MockControl = handlers;
export const isolate: () => Promise<void> = () => handlers.reset();
export const seeded = createHandlers({ fixtures: defaultFixtures, baseUrl: 'http://api.test/v1' });
export const inspected = createHandlers({ fixtures: { orders: [] }, inspector: inspector satisfies Inspector });
export const persisted = createHandlers({ fixtures: { orders: [] }, persist: inSessionStorage });
export const firstId: Int64String | undefined = (defaultFixtures satisfies DefaultFixtures).orders[0]?.id;

export async function consumer(): Promise<string[]> {
  const mock: Mock = await createMock({ fixtures: DEFAULT_FIXTURES_PATH });
  const client: PetstoreClient = createPetstoreClient({
    baseUrl: 'http://127.0.0.1:4010/v1',
    apiKey: mock.apiKeys[0] ?? '',
    fetch: (request) => mock.handle(request),
  });
  const { data, error } = await client.GET('/store/orders');
  const orders: Order[] = data ?? [];
  const id: Int64String | undefined = orders[0]?.id;
  const problem: ApiError | undefined = error;
  const cancelled = await client.DELETE('/store/orders/{orderId}', {
    params: { path: { orderId: id ?? 9007199254740993n } },
  });
  const refusal: ApiError | undefined = cancelled.error;
  // @ts-expect-error an int64 is a decimal string or a bigint: a number cannot hold them all
  await client.DELETE('/store/orders/{orderId}', { params: { path: { orderId: 1 } } });
  const result: ConformanceResult = await runConformance({ baseUrl: 'http://127.0.0.1:4010/v1', apiKey: 'k' });
  const exact = parseExactJson('{"id":9007199254740993}');
  describeConformance({ baseUrl: 'http://127.0.0.1:4010/v1', apiKey: 'k' });
  return [
    String(problem?.code),
    String(refusal?.status),
    String(result.checks.length),
    String(CHECKS.length),
    stringifyExactJson(exact.ok ? exact.value : null),
  ];
}
`;

/** Imports every module subpath and uses each as a first-time user would. */
const CONSUMER_MJS = `
import { writeFileSync } from 'node:fs';
const subpaths = ${JSON.stringify(MODULE_SUBPATHS)};
const modules = {};
for (const subpath of subpaths) modules[subpath] = Object.keys(await import(subpath)).sort();

const { createMock, createPetstoreClient } = await import('petstore-contract-toolkit');
writeFileSync('mine.yaml', 'apiKeys: [mine]\\norders:\\n  - { id: 9007199254740993, petId: 1, status: pending }\\n');
const relative = await createMock({ fixtures: 'mine.yaml' });
const byDefault = await createMock();
const client = createPetstoreClient({ baseUrl: 'http://127.0.0.1/v1', apiKey: 'mine', fetch: (r) => relative.handle(r) });
const listed = await client.GET('/store/orders');
const cancel = await client.DELETE('/store/orders/{orderId}', { params: { path: { orderId: listed.data[0].id } } });
const { default: defaultFixtures } = await import('petstore-contract-toolkit/fixtures');
const fromData = await createMock({ fixtures: defaultFixtures });
const fromDataClient = createPetstoreClient({ baseUrl: 'http://127.0.0.1/v1', apiKey: 'petstore-dev-key', fetch: (r) => fromData.handle(r) });
const fromDataList = await fromDataClient.GET('/store/orders');
// Made before MSW patches fetch, as an app's module-level client is: it must still be intercepted.
const browserLike = createPetstoreClient({ baseUrl: 'http://api.test/v1', apiKey: 'k' });
const { setupServer } = await import('msw/node');
const { createHandlers } = await import('petstore-contract-toolkit/msw');
const server = setupServer(...createHandlers({
  fixtures: { apiKeys: ['k'], orders: [{ id: 9007199254740993n, status: 'shipped' }] },
  baseUrl: 'http://api.test/v1',
}));
server.listen({ onUnhandledRequest: 'error' });
const refused = await browserLike.DELETE('/store/orders/{orderId}', { params: { path: { orderId: '9007199254740993' } } });
const inspectorStatus = [(await fetch('http://api.test/__mock/')).status];
server.close();
// Two "tests" that cancel the same order, with the one reset line between them; these handlers serve the inspector.
const { inspector } = await import('petstore-contract-toolkit/msw/inspector');
const isolated = createHandlers({ fixtures: { apiKeys: ['k'], orders: [{ id: 1, status: 'pending' }] }, baseUrl: 'http://api.test/v1', inspector });
const isolatedServer = setupServer(...isolated);
isolatedServer.listen({ onUnhandledRequest: 'error' });
inspectorStatus.push((await fetch('http://api.test/__mock/')).status);
const cancelOne = async () => (await browserLike.DELETE('/store/orders/{orderId}', { params: { path: { orderId: '1' } } })).response.status;
const resetBetween = [await cancelOne()];
await isolated.reset();
resetBetween.push(await cancelOne());
isolatedServer.close();

console.log(JSON.stringify({
  mswRefusal: refused.error,
  fixtureOrder: defaultFixtures.orders.find((order) => order.id === '9007199254740993'),
  fromDataIds: fromDataList.data.map((order) => order.id),
  resetBetween,
  inspectorStatus,
  modules,
  relativeKeys: relative.apiKeys,
  defaultSource: byDefault.fixtures.source,
  listed: listed.data,
  cancelStatus: cancel.response.status,
  fixturesUrl: import.meta.resolve('petstore-contract-toolkit/fixtures/default.yaml'),
  documentUrl: import.meta.resolve('petstore-contract-toolkit/openapi.yaml'),
}));
`;

function tsconfig(module: string, moduleResolution: string): string {
  return JSON.stringify({
    compilerOptions: {
      target: 'ES2022',
      // A front-end project's libraries: msw's own declarations need the DOM's.
      lib: ['ES2023', 'DOM', 'DOM.Iterable'],
      module,
      moduleResolution,
      strict: true,
      noEmit: true,
      // As most projects do: the declarations of vitest, msw and the DOM cost a minute of checking on a
      // shared machine. The consumer file still has to compile against ours, and an `any` in them would
      // break its @ts-expect-error; attw checks how they resolve.
      skipLibCheck: true,
      types: ['node'],
    },
    files: ['consumer.ts'],
  });
}

let work = '';
let tarball = '';
let consumer = '';
let packed: Packed | undefined;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'petstore-pack-'));
  packed = await packProject(work);
  tarball = packed.tarball;

  consumer = join(work, 'consumer');
  mkdirSync(consumer);
  writeFileSync(
    join(consumer, 'package.json'),
    JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
  );
  const pinned = ['typescript', '@types/node', 'vitest', 'msw'].map(
    (name) => `${name}@${manifest.devDependencies[name]}`,
  );
  expectSuccess(await run('npm', ['install', tarball, ...pinned, ...INSTALL_FLAGS], consumer, 300_000));
}, 400_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

// Each case starts Node, npm or tsc on a machine that may be busy: generous limits, no timing assertions.
const SLOW = { timeout: 180_000 };

describe('the packed tarball', SLOW, () => {
  it('holds the built code, its types, the document, the default fixtures and the command', () => {
    const files = new Set(packed?.files.map((file) => file.path));
    for (const target of Object.values(manifest.exports)) expect(files).toContain(target.slice(2));
    for (const target of Object.values(manifest.exports).filter((t) => t.endsWith('.js'))) {
      expect(files).toContain(target.slice(2).replace(/\.js$/, '.d.ts'));
    }
    expect(files).toContain('bin/petstore.js');
    expect(files).toContain('dist/src/cli/main.js');
    // The servers that prove the checks are test material, not part of the package.
    expect([...files].filter((file) => /test-support|targets\/|\.test\./.test(file))).toEqual([]);
  });

  it('holds nothing of the tests and no TypeScript source', () => {
    const paths = packed?.files.map((file) => file.path) ?? [];
    expect(paths.length).toBeGreaterThan(0);
    const unwanted = paths.filter(
      (path) =>
        /\.test(-d)?\.|test-support|conformance\/targets|\.conformance\./.test(path) ||
        (path.endsWith('.ts') && !path.endsWith('.d.ts')),
    );
    expect(unwanted).toEqual([]);
  });

  it('passes publint', async () => {
    const result = await run(
      process.execPath,
      [join(ROOT, 'node_modules', 'publint', 'src', 'cli.js'), 'run', tarball, '--strict'],
      work,
    );
    expectSuccess(result);
    expect(result.stdout).toContain('All good!');
  });

  it('passes attw with the esm-only profile (.attw.json)', async () => {
    const cli = join(ROOT, 'node_modules', '@arethetypeswrong', 'cli', 'dist', 'index.js');
    const result = await run(
      process.execPath,
      [cli, tarball, '--config-path', join(ROOT, '.attw.json'), '--format', 'table', '--no-color'],
      work,
    );
    expectSuccess(result);
    // The profile ignores node10 and require(); every other resolution must be clean.
    const problems = result.stdout.split('\n').filter((line) => /💀|⚠️|❌|🐛|🥴|🎭|❗️/u.test(line));
    expect(problems.filter((line) => !line.includes('(ignored'))).toEqual([]);
    expect(result.stdout).toMatch(/bundler\s+│\s+🟢/u);
  });
});

describe('installed into an empty project', SLOW, () => {
  it('runs `npx petstore --help`', async () => {
    const result = await run('npx', ['petstore', '--help'], consumer);
    expectSuccess(result);
    expect(result.stdout).toMatch(/^Usage: petstore <command> \[options\]/);
  });

  it('serves the default fixtures with `npx petstore mock --port 0`', async () => {
    // Its own process group, so that stopping it stops npx and the command npx started.
    const child: ChildProcess = spawn('npx', ['petstore', 'mock', '--port', '0'], {
      cwd: consumer,
      env: childEnv(),
      detached: true,
    });
    try {
      const baseUrl = await new Promise<string>((resolve, reject) => {
        let out = '';
        const timer = setTimeout(() => reject(new Error(`no banner within 60 s:\n${out}`)), 60_000);
        child.stdout?.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          const found = /listening on (http:\/\/127\.0\.0\.1:\d+\/v1)/.exec(out)?.[1];
          if (found) {
            clearTimeout(timer);
            resolve(found);
          }
        });
        child.on('exit', (code) => reject(new Error(`exited ${code} before listening:\n${out}`)));
      });
      const response = await fetch(`${baseUrl}/store/orders`, {
        headers: { authorization: 'Bearer petstore-dev-key' },
      });
      expect(response.status).toBe(200);
      expect(await response.text()).toContain('"id":9007199254740993');
    } finally {
      if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, 'SIGTERM');
    }
  });

  it('imports every subpath from an ESM file and works from the project folder', async () => {
    writeFileSync(join(consumer, 'consumer.mjs'), CONSUMER_MJS);
    const result = await run(process.execPath, ['consumer.mjs'], consumer);
    expectSuccess(result);
    const seen = JSON.parse(result.stdout) as {
      modules: Record<string, string[]>;
      relativeKeys: string[];
      defaultSource: string;
      listed: Array<{ id: string }>;
      cancelStatus: number;
      mswRefusal: unknown;
      fixtureOrder: unknown;
      fromDataIds: string[];
      resetBetween: number[];
      inspectorStatus: number[];
      fixturesUrl: string;
      documentUrl: string;
    };
    expect(Object.keys(seen.modules).sort()).toEqual([...MODULE_SUBPATHS].sort());
    expect(seen.modules[manifest.name]).toEqual(
      expect.arrayContaining(['createMock', 'createPetstoreClient']),
    );
    expect(seen.modules[`${manifest.name}/conformance`]).toContain('runConformance');
    expect(seen.modules[`${manifest.name}/conformance/vitest`]).toContain('describeConformance');
    expect(seen.relativeKeys).toEqual(['mine']); // mine.yaml, read from the caller's folder
    expect(seen.listed.map((order) => order.id)).toEqual(['9007199254740993']);
    expect(seen.cancelStatus).toBe(204);
    expect(seen.mswRefusal).toMatchObject({ status: 409, code: 'order_already_shipped' });
    expect(seen.modules[`${manifest.name}/fixtures`]).toEqual(['default']);
    expect(seen.fixtureOrder).toEqual({
      id: '9007199254740993',
      petId: '11',
      quantity: 1,
      shipDate: '2026-12-20T12:00:00Z',
      status: 'pending',
    });
    // The data seeds a mock: its pending and shipped orders are listed, the big ids exact.
    expect(seen.fromDataIds).toHaveLength(13);
    expect(seen.fromDataIds).toEqual(expect.arrayContaining(['9007199254740993', '9223372036854775807']));
    expect(seen.resetBetween).toEqual([204, 204]);
    // The inspector is served by MSW handlers only when given /msw/inspector's assets.
    expect(seen.inspectorStatus).toEqual([404, 200]);
    const installed = join(consumer, 'node_modules', manifest.name);
    expect(relative(installed, new URL(seen.fixturesUrl).pathname)).toBe(join('fixtures', 'default.yaml'));
    expect(relative(installed, new URL(seen.documentUrl).pathname)).toBe(join('spec', 'openapi.yaml'));
    expect(relative(installed, seen.defaultSource)).toBe(join('fixtures', 'default.yaml'));
  });

  it('packs to at most 300 kB (issue 23), so an install stays quick', () => {
    expect(packed?.size).toBeLessThanOrEqual(300 * 1000);
  });

  it('ships no source maps: the compiled JavaScript is the readable source, and the package stays small', () => {
    const paths = packed?.files.map((file) => file.path) ?? [];
    expect(paths.filter((path) => path.endsWith('.map'))).toEqual([]);
    const installed = join(consumer, 'node_modules', manifest.name, 'dist', 'src', 'client');
    expect(readFileSync(join(installed, 'client.js'), 'utf8')).not.toMatch(/sourceMappingURL/);
  });

  it('runs the complete example of docs/frontend.md as written, and prints what the page says', async () => {
    const page = readFileSync(join(ROOT, 'docs', 'frontend.md'), 'utf8');
    const [, code, printed] =
      /<!-- example: orders\.mjs -->\n```js\n([\s\S]*?)```\n\nIt prints:\n\n```\n([\s\S]*?)```/.exec(page) ??
      [];
    expect(code, 'the example block of docs/frontend.md').toBeDefined();
    writeFileSync(join(consumer, 'orders.mjs'), code ?? '');
    const result = await run(process.execPath, ['orders.mjs'], consumer);
    expectSuccess(result);
    expect(result.stdout).toBe(printed);
  });

  it.each([
    ['bundler', 'ESNext'],
    ['node16', 'Node16'],
  ])('type-checks a consumer file with moduleResolution %s', async (moduleResolution, module) => {
    writeFileSync(join(consumer, 'consumer.ts'), CONSUMER_TS);
    const config = `tsconfig.${moduleResolution}.json`;
    writeFileSync(join(consumer, config), tsconfig(module, moduleResolution));
    const tsc = join(consumer, 'node_modules', 'typescript', 'bin', 'tsc');
    expectSuccess(await run(process.execPath, [tsc, '-p', config], consumer));
  });
});
