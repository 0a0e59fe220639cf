/** The state inspector for MSW handlers: its own entry, so a page that does not ask does not load it. */
import type { MockHandlers } from './index.js';

export { type Inspector, inspector } from '../mock/inspector.js';

export interface MountOptions {
  /** An element of the page (an `HTMLElement`) to show the inspector in; default a panel over the page. */
  target?: object;
  /** The inspector's script: `/__mock/inspector.js`, or e.g. `http://api.test/api/__mock/inspector.js`. */
  script?: string;
}

/** Shows the state inspector (issue 24) with the handlers' key; resolves to its element. */
export async function mountInspector(mock: MockHandlers, options: MountOptions = {}): Promise<object> {
  const page = (globalThis as { location?: { href: string } }).location?.href;
  const url = new URL(options.script ?? '/__mock/inspector.js', page).href;
  // A URL the worker answers at run time, not a module for the bundler to resolve.
  const script = (await import(/* @vite-ignore */ url)) as {
    mount(target: object | undefined, key: string | undefined): object;
  };
  return script.mount(options.target, mock.apiKeys[0]);
}
