/**
 * `petstore mock` as users run it: the real bin/petstore.js over a fresh build, spawned as a process.
 * No sleeps: each step waits for the line the command prints.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../contract/package-root.js';
import { banner } from './cli.js';
import { createMock } from './index.js';
import { aliasBomb } from './test-support/alias-bomb.js';
import { send } from './test-support/http.js';

// The command as `npm ci` builds it: vitest's global setup (scripts/build-before-tests.ts) has built dist/.
const bin = join(packageRoot(), 'bin', 'petstore.js');
/** Run from an empty folder, as a user's project would be: nothing is found relative to the working directory. */
const cwd = mkdtempSync(join(tmpdir(), 'petstore-cli-'));

interface Running {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  /** Waits for a pattern on stdout (or on stderr), in what was printed from offset `from` on. */
  waitFor: (pattern: RegExp, stream?: 'stdout' | 'stderr', from?: number) => Promise<RegExpMatchArray>;
  exited: Promise<number | null>;
}

// A failed test must not leave a mock running: every child is stopped at the end, whatever happened.
const children = new Set<ChildProcess>();
afterAll(() => {
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

function run(args: string[], env: Record<string, string | undefined> = {}): Running {
  const child = spawn(process.execPath, [bin, 'mock', ...args], {
    cwd,
    env: { ...process.env, PETSTORE_API_KEY: undefined, ...env },
  });
  children.add(child);
  let out = '';
  let err = '';
  const waiters: Array<{
    pattern: RegExp;
    stream: 'stdout' | 'stderr';
    from: number;
    resolve: (m: RegExpMatchArray) => void;
  }> = [];
  const check = () => {
    for (const waiter of [...waiters]) {
      const match = (waiter.stream === 'stdout' ? out : err).slice(waiter.from).match(waiter.pattern);
      if (match) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(match);
      }
    }
  };
  child.stdout?.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    check();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    err += chunk.toString();
    check();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    exited,
    waitFor: (pattern, stream = 'stdout', from = 0) =>
      new Promise((resolve, reject) => {
        waiters.push({ pattern, stream, from, resolve });
        check();
        void exited.then(() => reject(new Error(`exited before printing ${pattern}:\n${out}\n${err}`)));
        setTimeout(
          () => reject(new Error(`no ${pattern} within 10 s; printed:\n${out}\n${err}`)),
          10_000,
        ).unref();
      }),
  };
}

const temp = mkdtempSync(join(tmpdir(), 'petstore-cli-fixtures-'));

describe('petstore mock', () => {
  let busy: Server;
  let busyPort = 0;
  beforeAll(async () => {
    busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const address = busy.address();
    busyPort = typeof address === 'object' && address ? address.port : 0;
  });
  afterAll(() => new Promise<void>((resolve) => busy.close(() => resolve())));

  it('prints the base URL, the key and a curl line that works, then stops cleanly on SIGTERM', async () => {
    const started = performance.now();
    const mock = run(['--port', '0']);
    const [, baseUrl] = (await mock.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+\/v1)\n/)) as string[];
    await mock.waitFor(/Press Ctrl\+C to stop/);
    expect(mock.stdout()).toMatch(/API key: {2}petstore-dev-key \(from the fixture file\)/);
    const [, key, url] = (await mock.waitFor(
      /list: +curl -H 'Authorization: Bearer ([^']+)' (\S+)/,
    )) as string[];
    expect(url).toBe(`${baseUrl}/store/orders`);
    const response = await fetch(url as string, { headers: { authorization: `Bearer ${key}` } });
    expect(response.status).toBe(200);
    const [, cancelUrl] = (await mock.waitFor(/cancel: +curl -i -X DELETE -H '[^']+' (\S+)/)) as string[];
    const cancel = () =>
      fetch(cancelUrl as string, { method: 'DELETE', headers: { authorization: `Bearer ${key}` } });
    expect((await cancel()).status).toBe(204);
    expect((await cancel()).status).toBe(404);
    const startToAnswer = performance.now() - started;
    expect(startToAnswer).toBeLessThan(5000);
    await mock.waitFor(/GET \/v1\/store\/orders 200 [\d.]+ms/);
    mock.child.kill('SIGTERM');
    expect(await mock.exited).toBe(0);
    expect(mock.stdout()).toMatch(/stopped \(SIGTERM\)/);
    expect(mock.stderr()).toBe('');
  });

  it('stops cleanly on SIGINT too, and --quiet keeps requests out of the output', async () => {
    const mock = run(['--port', '0', '--quiet']);
    const [, baseUrl] = (await mock.waitFor(/listening on (\S+)\n/)) as string[];
    expect(
      (await fetch(`${baseUrl}/store/orders`, { headers: { authorization: 'Bearer petstore-dev-key' } }))
        .status,
    ).toBe(200);
    mock.child.kill('SIGINT');
    expect(await mock.exited).toBe(0);
    expect(mock.stdout()).not.toMatch(/GET \/v1/);
  });

  it.each([
    {
      name: 'a port in use',
      args: () => ['--port', String(busyPort)],
      want: /port \d+ on 127\.0\.0\.1 is already in use\. .*--port/,
    },
    {
      name: 'an unknown flag',
      args: () => ['--bogus'],
      want: /Unknown option '--bogus'.*petstore mock --help/,
    },
    {
      name: 'a missing fixture file',
      args: () => ['--fixtures', join(temp, 'missing.yaml')],
      want: /invalid fixture file .*missing\.yaml: no such file\. Fix the file, or pass another with --fixtures FILE/,
    },
    {
      name: 'an invalid fixture file',
      args: () => {
        const path = join(temp, 'bad.yaml');
        writeFileSync(path, 'orders:\n  - { id: 1, status: pending }\n  - { id: 1, status: shipped }\n');
        return ['--fixtures', path];
      },
      want: /invalid fixture file .*bad\.yaml: orders\[1\] \(id 1\): duplicate id 1/,
    },
    {
      name: 'a fixture file whose aliases expand to a gigabyte (an alias bomb)',
      args: () => {
        const path = join(temp, 'bomb.yaml');
        writeFileSync(path, aliasBomb());
        return ['--fixtures', path];
      },
      want: /invalid fixture file .*bomb\.yaml: expands to more than 64 MiB once its aliases/,
    },
  ])('exits with 2 and one clear line for $name', async ({ args, want }) => {
    const mock = run(args());
    expect(await mock.exited).toBe(2);
    const lines = mock.stderr().trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^petstore mock: /);
    expect(lines[0]).toMatch(want);
    expect(mock.stderr()).not.toMatch(/\n\s+at /);
  });

  it('ends at once on SIGTERM while a delayed answer is pending', async () => {
    const mock = run(['--port', '0', '--quiet']);
    const [, url] = (await mock.waitFor(/state: +curl -H '[^']+' (\S+)\/__mock\/state/)) as string[];
    const headers = { authorization: 'Bearer petstore-dev-key', 'content-type': 'application/json' };
    const planned = await fetch(`${url}/__mock/faults`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ operation: 'listOrders', delayMs: 30_000, times: 1 }),
    });
    expect(planned.status).toBe(201);
    const pending = fetch(`${url}/v1/store/orders`, { headers }).catch(() => 'cut off');
    // The fault is used up when the request arrives: once the plan is empty, the answer is waiting.
    for (;;) {
      const plan = (await (await fetch(`${url}/__mock/faults`, { headers })).json()) as { faults: unknown[] };
      if (plan.faults.length === 0) break;
    }
    const signalled = performance.now();
    mock.child.kill('SIGTERM');
    const exit = await Promise.race([
      mock.exited,
      new Promise<string>((resolve) => setTimeout(() => resolve('still running'), 2000).unref()),
    ]);
    expect(exit).toBe(0);
    expect(performance.now() - signalled).toBeLessThan(2000);
    expect(await pending).toBe('cut off');
  });

  it('warns on stderr, without the key, when other machines can reach it', async () => {
    const mock = run(['--port', '0', '--host', '0.0.0.0', '--quiet']);
    const [line] = (await mock.waitFor(/petstore mock: warning: .*\n/, 'stderr')) as string[];
    expect(line).toMatch(/listening on 0\.0\.0\.0, reachable from other machines: the default key is public/);
    expect(line).toMatch(/can read every order and change the mock's state/);
    expect(line).not.toContain('petstore-dev-key');
    mock.child.kill('SIGTERM');
    expect(await mock.exited).toBe(0);
  });

  it('lets the pages named with --cors-origin use the control endpoints, and refuses others', async () => {
    const mock = run([
      '--port',
      '0',
      '--quiet',
      '--cors-origin',
      'https://app.test',
      '--cors-origin',
      'null',
    ]);
    const [, url] = (await mock.waitFor(/listening on (\S+)\/v1\n/)) as string[];
    const state = (origin: string) =>
      fetch(`${url}/__mock/state`, { headers: { authorization: 'Bearer petstore-dev-key', origin } });
    for (const origin of ['https://app.test', 'null', 'http://localhost:5173']) {
      const answer = await state(origin);
      expect([answer.status, answer.headers.get('access-control-allow-origin')], origin).toEqual([
        200,
        origin,
      ]);
    }
    const refused = await state('https://evil.example');
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { code: string }).code).toBe('origin_not_allowed');
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
    expect(mock.stderr()).toBe('');
    mock.child.kill('SIGTERM');
    expect(await mock.exited).toBe(0);
  });

  it('prints its options with --help', async () => {
    const mock = run(['--help']);
    expect(await mock.exited).toBe(0);
    for (const flag of [
      '--port',
      '--host',
      '--fixtures',
      '--api-key',
      '--cors-origin',
      '--delay',
      '--watch',
      '--quiet',
    ]) {
      expect(mock.stdout()).toContain(flag);
    }
  });

  it('reloads fixtures on change and keeps the last good state on a broken edit', async () => {
    const path = join(temp, 'watched.yaml');
    writeFileSync(path, 'orders:\n  - { id: 1, status: pending }\n');
    const mock = run(['--port', '0', '--quiet', '--watch', '--fixtures', path]);
    const [, baseUrl] = (await mock.waitFor(/listening on (\S+)\n/)) as string[];
    const list = async () =>
      (
        await fetch(`${baseUrl}/store/orders`, { headers: { authorization: 'Bearer petstore-dev-key' } })
      ).text();
    writeFileSync(path, 'orders:\n  - { id: 2, status: shipped }\n');
    await mock.waitFor(/fixtures reloaded from .*watched\.yaml: 1 order,/);
    expect(await list()).toBe('[{"id":2,"complete":true}]');
    writeFileSync(path, 'orders:\n  - { id: 3, status: lost }\n');
    await mock.waitFor(
      /petstore mock: fixtures NOT reloaded, keeping the last good state: .*orders\[0\] \(id 3\): status must be one of/,
      'stderr',
    );
    expect(await list()).toBe('[{"id":2,"complete":true}]');
    mock.child.kill('SIGTERM');
    expect(await mock.exited).toBe(0);
  });
});

describe('the per-request log', () => {
  const key = { authorization: 'Bearer petstore-dev-key' };
  const pad = 'x'.repeat(180);

  /** Sends `count` requests, a few at a time; each must be answered within 5 s. */
  async function hammer(baseUrl: string, count: number): Promise<number[]> {
    const statuses: number[] = [];
    for (let i = 0; i < count; i += 20) {
      const batch = Array.from({ length: Math.min(20, count - i) }, (_, j) =>
        fetch(`${baseUrl}/store/orders?n=${i + j}&pad=${pad}`, {
          headers: key,
          signal: AbortSignal.timeout(5000),
        }).then(async (response) => {
          await response.arrayBuffer();
          return response.status;
        }),
      );
      statuses.push(...(await Promise.all(batch)));
    }
    return statuses;
  }

  it('drops and counts lines while nobody reads stdout, instead of buffering them', async () => {
    const mock = run(['--port', '0']);
    const [, baseUrl] = (await mock.waitFor(/listening on (\S+)\n/)) as string[];
    await mock.waitFor(/Press Ctrl\+C to stop\.\n/);
    mock.child.stdout?.pause();
    // About 1,500 lines of 230 bytes: several times what the pipe and the writer's queue hold.
    const requests = 1500;
    const statuses = await hammer(baseUrl as string, requests);
    expect(statuses.every((status) => status === 200)).toBe(true);
    mock.child.stdout?.resume();
    // Once the output is read again, the mock says how many lines it dropped.
    await mock.waitFor(/log lines? dropped: the output was not being read\)\n/);
    mock.child.kill('SIGTERM');
    expect(await mock.exited).toBe(0);
    // Every request was either printed or counted as dropped (stopping writes what is still queued).
    const printed = (mock.stdout().match(/^GET \/v1\/store\/orders\?n=\d+/gm) ?? []).length;
    const notes = [...mock.stdout().matchAll(/^\((\d+) log lines? dropped/gm)].map((note) => Number(note[1]));
    expect(printed + notes.reduce((a, b) => a + b, 0)).toBe(requests);
    expect(printed).toBeGreaterThan(0);
  });

  it('escapes control characters that a request brings into its log line', async () => {
    const mock = run(['--port', '0']);
    const [, url] = (await mock.waitFor(/listening on (http:\/\/[^/]+)\/v1\n/)) as string[];
    const answer = await send(url as string, {
      method: 'GET',
      path: '/v1/store/orders',
      headers: { ...key, 'x-mock-session': 'a\u009b2Jb\tc' },
    });
    expect(answer.status).toBe(200);
    await mock.waitFor(/GET \/v1\/store\/orders 200 [\d.]+ms \[.*\]\n/);
    expect(mock.stdout()).toContain('[a\\x9b2Jb\\x09c]');
    expect(mock.stdout()).not.toMatch(/[\u0080-\u009f\t]/);
    mock.child.kill('SIGTERM');
    expect(await mock.exited).toBe(0);
  });

  const script = ['/usr/bin/script', '/bin/script'].find((path) => existsSync(path));
  it.skipIf(script === undefined)(
    'keeps answering while the terminal is paused (Ctrl+S), and stops on Ctrl+C (needs util-linux script)',
    async () => {
      // `script` gives the command a real terminal; writing Ctrl+S to it pauses that terminal's output.
      // It runs the command through $SHELL. `exec` makes the mock the terminal's only process: otherwise
      // Ctrl+C also reaches the shell, and dash (Debian's /bin/sh, what `script` uses when SHELL is unset,
      // as in CI) dies of it with 130 while the mock itself stops cleanly. SHELL is fixed so that every
      // machine runs this the same way.
      const command = `exec '${process.execPath}' '${bin}' mock --port 0`;
      const child = spawn(script as string, ['-qfec', command, '/dev/null'], {
        cwd,
        env: { ...process.env, PETSTORE_API_KEY: undefined, SHELL: '/bin/sh' },
      });
      children.add(child);
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
      });
      const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
      const waitFor = async (pattern: RegExp) => {
        for (let i = 0; i < 500 && !pattern.test(out); i++) await new Promise((r) => setTimeout(r, 20));
        const match = out.match(pattern);
        if (!match) throw new Error(`no ${pattern} within 10 s; printed:\n${out}`);
        return match;
      };
      const [, baseUrl] = (await waitFor(/listening on (\S+)\r?\n/)) as string[];
      await waitFor(/Press Ctrl\+C to stop\./);
      child.stdin.write('\u0013');
      const statuses = await hammer(baseUrl as string, 400);
      expect(statuses.every((status) => status === 200)).toBe(true);
      child.stdin.write('\u0011');
      await waitFor(/log lines? dropped: the output was not being read\)/);
      child.stdin.write('\u0003');
      expect(await exited).toBe(0);
      expect(out).toMatch(/stopped \(SIGINT\)/);
    },
    30_000,
  );
});

describe('banner', () => {
  it.each([
    { orders: 1, pets: 1, want: '(1 order, 1 pet)' },
    { orders: 2, pets: 0, want: '(2 orders, 0 pets)' },
  ])('counts $orders orders and $pets pets in words', async ({ orders, pets, want }) => {
    const mock = await createMock({
      fixtures: {
        orders: Array.from({ length: orders }, (_, i) => ({ id: i + 1, status: 'pending' as const })),
        pets: Array.from({ length: pets }, (_, i) => ({ id: i + 1 })),
      },
    });
    const info = { url: 'http://127.0.0.1:1', baseUrl: 'http://127.0.0.1:1/v1', port: 1 };
    expect(banner(info, mock, 'test', 'f.yaml')).toContain(`fixtures: f.yaml ${want}\n`);
  });

  it.each([
    ['0.0.0.0', true],
    ['192.168.1.5', true],
    ['127.0.0.2', false],
    ['[::1]', false],
    ['localhost', false],
  ])(
    'notes in the banner whether %s is reachable from other machines, by the rule of the warning',
    async (host, want) => {
      const mock = await createMock({ fixtures: { orders: [] } });
      const info = { url: 'http://127.0.0.1:1', baseUrl: 'http://127.0.0.1:1/v1', port: 1 };
      expect(banner(info, mock, 'test', 'f.yaml', host).includes('reachable from other machines')).toBe(want);
    },
  );
});

describe('--watch under careless saves and hostile files', () => {
  it('refuses each state a save passes through, and files that are not regular, keeping the last good state', async () => {
    const path = join(temp, 'saving.yaml');
    writeFileSync(path, 'apiKeys: [k1]\norders:\n  - { id: 1, status: pending }\n');
    const mock = run(['--port', '0', '--quiet', '--watch', '--fixtures', path]);
    const [, baseUrl] = (await mock.waitFor(/listening on (\S+)\n/)) as string[];
    const list = async () =>
      (
        await fetch(`${baseUrl}/store/orders`, {
          headers: { authorization: 'Bearer k1' },
          signal: AbortSignal.timeout(5000),
        })
      ).text();
    const good = await list();
    const replace = (make: () => void) => () => {
      rmSync(path, { force: true });
      make();
    };
    const steps = [
      {
        name: 'an empty file',
        change: () => writeFileSync(path, ''),
        want: 'holds no fixtures \\(it is empty',
      },
      { name: 'only comments', change: () => writeFileSync(path, '# saving…\n'), want: 'holds no fixtures' },
      {
        name: 'the first lines only',
        change: () => writeFileSync(path, 'pets: []\n'),
        want: 'has no orders and no keys, where the last good version had 1 order;',
      },
      {
        name: 'an alias bomb under the alias cap',
        change: () => writeFileSync(path, aliasBomb()),
        want: 'expands to more than 64 MiB once its aliases',
      },
      {
        name: 'a FIFO',
        change: replace(() => execFileSync('mkfifo', [path])),
        want: 'is not a regular file',
      },
      {
        name: 'a symlink to /dev/zero',
        change: replace(() => symlinkSync('/dev/zero', path)),
        want: 'is not a regular file',
      },
      {
        name: 'a file over the size cap',
        change: replace(() => {
          writeFileSync(path, '');
          truncateSync(path, 33 * 2 ** 20);
        }),
        want: 'over the 32 MiB a fixture file may be',
      },
    ];
    for (const step of steps) {
      const from = mock.stderr().length;
      step.change();
      await mock.waitFor(
        new RegExp(`petstore mock: fixtures NOT reloaded, keeping the last good state: .*${step.want}`),
        'stderr',
        from,
      );
      expect(await list(), step.name).toBe(good);
    }
    replace(() => writeFileSync(path, 'apiKeys: [k1]\norders:\n  - { id: 2, status: shipped }\n'))();
    await mock.waitFor(/fixtures reloaded from .*saving\.yaml: 1 order, every session reset/);
    expect(await list()).toBe('[{"id":2,"complete":true}]');
    mock.child.kill('SIGTERM');
    expect(await mock.exited).toBe(0);
  }, 60_000);
});

describe('key precedence', () => {
  it('prints the key from the environment in the banner', async () => {
    const mock = run(['--port', '0'], { PETSTORE_API_KEY: 'from-env' });
    await mock.waitFor(/API key: {2}from-env \(from PETSTORE_API_KEY\)/);
    mock.child.kill('SIGTERM');
    expect(await mock.exited).toBe(0);
  });
});
