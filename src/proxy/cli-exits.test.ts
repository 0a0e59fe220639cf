/**
 * The proxy with stdout closed by its reader (issue 25): it keeps forwarding until signalled, then writes
 * its reports and exits with the verdict. Run as `bin/petstore.js` (dist/ built by the vitest global setup).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { CORRECT_SERVERS } from '../../test-support/servers/correct-servers.js';
import { type Behaviour, startTarget, TARGET_KEY } from '../../test-support/servers/reference-server.js';
import { packageRoot } from '../contract/package-root.js';

const cleanup: Array<() => unknown> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

it('a proxy whose stdout is closed forwards on a clean upstream, and exits 0 with its report on SIGTERM', async () => {
  const target = await startTarget(CORRECT_SERVERS[0]?.behaviour as Behaviour);
  cleanup.push(() => target.close());
  const dir = mkdtempSync(join(tmpdir(), 'petstore-proxy-exits-'));
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  const port = await freePort();
  const child = spawn(process.execPath, [
    join(packageRoot(), 'bin', 'petstore.js'),
    'proxy',
    '--upstream',
    target.baseUrl,
    '--port',
    String(port),
    '--reporter',
    'pretty',
    '--reporter',
    'json',
    '--output-dir',
    dir,
  ]);
  cleanup.push(() => child.kill('SIGKILL'));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  child.stdout.destroy();
  // The banner, the one sign of life, went to the closed stdout: the proxy is up once it answers.
  const list = async (): Promise<Response> => {
    try {
      return await fetch(`http://127.0.0.1:${port}/v1/store/orders`, {
        headers: { authorization: `Bearer ${TARGET_KEY}` },
      });
    } catch (error) {
      if (child.exitCode !== null) throw error;
      return list();
    }
  };
  const answer = await list();
  expect(answer.status).toBe(200);
  await answer.text();
  child.kill('SIGTERM');
  expect(await exited).toBe(0);
  const report = JSON.parse(readFileSync(join(dir, 'proxy.json'), 'utf8'));
  expect(report).toMatchObject({ outcome: 'pass', summary: { requests: 1 } });
});
