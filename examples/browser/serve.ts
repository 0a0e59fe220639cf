/**
 * Serves the example on 127.0.0.1: the page, its script bundled by esbuild for the browser, and MSW's
 * service worker taken from the installed msw package (so it always matches the msw version). Every
 * answer carries `Content-Security-Policy: script-src 'self'`, as deploy previews often do: the mock runs
 * under it because its validators were generated at build time (no `new Function`, no `eval`).
 *
 *   npx tsx examples/browser/serve.ts        then open the URL it prints
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const HERE = fileURLToPath(new URL('.', import.meta.url));

/** The policy the example is served with: scripts from the page's own origin only, so no eval of any kind. */
export const EXAMPLE_CSP = "script-src 'self'";

export interface ExampleServer {
  url: string;
  /** Every path the server was asked for, in order: what reached it instead of the service worker. */
  requests: string[];
  close(): Promise<void>;
}

/** The page's script, bundled for browsers. */
export async function bundleExample(): Promise<string> {
  const result = await build({
    entryPoints: [`${HERE}main.ts`],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0]?.text ?? '';
}

/**
 * Starts the example's server (port 0 picks a free one), every answer under `contentSecurityPolicy`.
 *
 * @example const { url, close } = await startExampleServer(0)
 */
export async function startExampleServer(
  port = 0,
  contentSecurityPolicy = EXAMPLE_CSP,
): Promise<ExampleServer> {
  const files = new Map<string, { type: string; body: string }>([
    ['/', { type: 'text/html; charset=utf-8', body: readFileSync(`${HERE}index.html`, 'utf8') }],
    ['/main.js', { type: 'text/javascript', body: await bundleExample() }],
    [
      '/mockServiceWorker.js',
      {
        type: 'text/javascript',
        body: readFileSync(createRequire(import.meta.url).resolve('msw/mockServiceWorker.js'), 'utf8'),
      },
    ],
  ]);
  const requests: string[] = [];
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    requests.push(path);
    const file = files.get(path);
    const csp = { 'content-security-policy': contentSecurityPolicy };
    if (!file) {
      res.writeHead(404, { 'content-type': 'text/plain', ...csp }).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': file.type, 'cache-control': 'no-store', ...csp }).end(file.body);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { url } = await startExampleServer(5173);
  process.stdout.write(`Pet Store MSW example on ${url}/ (Ctrl+C to stop)\n`);
}
