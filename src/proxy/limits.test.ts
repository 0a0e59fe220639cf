import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createProxy, type ProxyOptions } from './index.js';

const running: Array<() => Promise<unknown>> = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const close of running.splice(0).reverse()) await close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Answers 404 with an Error everywhere, and 500 to `/v1/store/orders` and to long paths. */
function upstreamHandler(req: IncomingMessage, res: ServerResponse): void {
  req.resume();
  const status = req.url === '/v1/store/orders' || (req.url ?? '').length > 1000 ? 500 : 404;
  const body = JSON.stringify({ code: 'x', message: 'X.', status });
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(body);
}

async function setUp(options: Partial<ProxyOptions> = {}) {
  const upstream = createServer(upstreamHandler);
  await new Promise<void>((done) => upstream.listen(0, '127.0.0.1', () => done()));
  running.push(
    () =>
      new Promise((done) => {
        upstream.closeAllConnections();
        upstream.close(done);
      }),
  );
  const { port } = upstream.address() as AddressInfo;
  const proxy = createProxy({ upstream: `http://127.0.0.1:${port}/v1`, ...options });
  const info = await proxy.listen({ port: 0 });
  return { proxy, info };
}

describe('bounds on findings', () => {
  it("counts the server's 500 after more junk findings of the client than are kept (exit 1)", async () => {
    const { proxy, info } = await setUp({ maxFindings: 5 });
    for (let i = 0; i < 10; i += 1) await (await fetch(`${info.baseUrl}/junk/${i}`)).arrayBuffer();
    await (
      await fetch(`${info.baseUrl}/store/orders`, { headers: { authorization: 'Bearer k' } })
    ).arrayBuffer();
    const { result } = await proxy.close();
    expect(result.outcome).toBe('fail');
    const serverError = result.checks.find((c) => c.id === 'exchange.server-error');
    expect(serverError?.outcome).toBe('FAIL');
    expect(serverError?.findings).toHaveLength(1);
    const junk = result.checks.find((c) => c.id === 'client.undocumented');
    expect(junk?.message).toMatch(/^10 finding\(s\)/);
    expect(junk?.findings).toHaveLength(5);
    expect(junk?.notes.join(' ')).toMatch(
      /^5 of its 10 finding\(s\) were counted \(and printed\) but not kept/,
    );
  });

  it('pages /__proxy/findings after 500 findings with 15 KB paths, and writes bounded reports', async () => {
    const outputDir = mkdtempSync(join(tmpdir(), 'petstore-proxy-limits-'));
    dirs.push(outputDir);
    const { proxy, info } = await setUp({
      reporters: ['json', 'junit', 'html'],
      outputDir,
      judgeClient: false,
    });
    const long = 'a'.repeat(15_000);
    for (let i = 0; i < 500; i += 1) {
      await (
        await fetch(`${info.baseUrl}/${long}/${i}`, { headers: { authorization: 'Bearer k' } })
      ).arrayBuffer();
    }
    const first = await fetch(`${info.url}/__proxy/findings`);
    const page = (await first.json()) as {
      summary: { total: number; notKept: number };
      findings: Array<{ seq: number; path: string }>;
      next: string | null;
    };
    expect(first.status).toBe(200);
    expect(page.summary.total).toBe(500);
    expect(page.findings).toHaveLength(100);
    expect(page.findings[0]?.path.length ?? 0).toBeLessThan(2_100);
    expect(page.next).toBe(`/__proxy/findings?since=${page.findings[99]?.seq}&limit=100`);
    // Following `next` reaches every kept finding; the rest, if any, are counted as not kept.
    let seen = 0;
    let next: string | null = '/__proxy/findings?limit=1000';
    while (next) {
      const answer = await fetch(`${info.url}${next}`);
      expect(Number(answer.headers.get('content-length'))).toBeLessThan(2 * 1024 * 1024);
      const body = (await answer.json()) as { findings: unknown[]; next: string | null };
      seen += body.findings.length;
      next = body.next;
    }
    expect(seen).toBeGreaterThan(100);
    expect(seen + page.summary.notKept).toBe(500);
    expect((await fetch(`${info.url}/__proxy/findings?limit=0`)).status).toBe(400);
    const { written } = await proxy.close();
    expect(written).toHaveLength(3);
    // Without the cut, 500 findings of 15 KB paths (each in the message, the URL and the curl line)
    // made a report of about 25 MB.
    for (const path of written) expect(statSync(path).size).toBeLessThan(12 * 1024 * 1024);
    expect(JSON.parse(readFileSync(join(outputDir, 'proxy.json'), 'utf8')).outcome).toBe('fail');
  }, 60_000);
});
