/**
 * The state inspector for MSW handlers, its own entry so a page that does not ask for it does not load it.
 *
 * @example createHandlers({ fixtures, inspector }); await mountInspector(mock);
 */
import type { MockHandlers } from './index.js';

export { type Inspector, inspector } from '../mock/inspector.js';

export interface MountOptions {
  /** An element of the page (an `HTMLElement`) to show the inspector in; default a panel over the page. */
  target?: object;
  /**
   * Where the handlers serve the inspector's script: `/__mock/inspector.js` beside the page by default;
   * `http://api.test/api/__mock/inspector.js` for handlers made with `baseUrl: 'http://api.test/api/v1'`.
   */
  script?: string;
}

/**
 * Shows the state inspector inside the app's page, beside the app (issue 24): the handlers' own state and
 * request timeline, and the handlers' key, so it asks for none. The worker must be started and the
 * handlers made with `inspector`. Resolves to the element it added (remove it to close the inspector).
 *
 * @example await mountInspector(mock, { target: document.getElementById('inspector') })
 */
export async function mountInspector(mock: MockHandlers, options: MountOptions = {}): Promise<object> {
  const page = (globalThis as { location?: { href: string } }).location?.href;
  const url = new URL(options.script ?? '/__mock/inspector.js', page).href;
  // A URL the worker answers at run time, not a module for the bundler to resolve.
  const script = (await import(/* @vite-ignore */ url)) as {
    mount(target: object | undefined, key: string | undefined): object;
  };
  return script.mount(options.target, mock.apiKeys[0]);
}
