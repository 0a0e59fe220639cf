/** The benchmark's one way to ask a local server something outside the load runs. */

export interface Answer {
  status: number;
  /** Lower-case names, as `fetch` gives them. */
  headers: Record<string, string>;
  text: string;
}

/**
 * One request to a server on 127.0.0.1, giving up after 10 s instead of hanging the run.
 *
 * @example const { status } = await ask(4010, { method: 'GET', path: '/v1/store/orders', headers: {} });
 */
export async function ask(
  port: number,
  request: { method: string; path: string; headers: Record<string, string> },
): Promise<Answer> {
  const response = await fetch(`http://127.0.0.1:${port}${request.path}`, {
    method: request.method,
    headers: request.headers,
    signal: AbortSignal.timeout(10_000),
  });
  return {
    status: response.status,
    headers: Object.fromEntries(response.headers),
    text: await response.text(),
  };
}
