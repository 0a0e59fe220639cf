/** What `createHandlers` returns: an array of handlers (so `setupServer(...mock)` works) carrying the control methods. */
import type { HttpHandler } from 'msw';
import type { MockControl } from '../mock/control.js';

/** The handlers of one stateful mock, and the object that controls it. */
export type MockHandlers = HttpHandler[] &
  MockControl & {
    readonly handlers: HttpHandler[];
    /** The keys the handlers accept, as `createMock().apiKeys`. */
    readonly apiKeys: readonly string[];
    /** Where the `/__mock/` control endpoints answer: `http://api.test/__mock/`, or `/__mock/` for the page's origin. */
    readonly controlUrl: string;
  };

/**
 * Puts the control methods on an array of handlers, not enumerable, so it spreads, logs and compares as before.
 *
 * @example setupServer(...withControl([handler], control))
 */
export function withControl(handlers: HttpHandler[], control: MockControl): MockHandlers {
  const properties: PropertyDescriptorMap = { handlers: { value: [...handlers] } };
  for (const [name, value] of Object.entries(control)) properties[name] = { value };
  return Object.defineProperties(handlers, properties) as MockHandlers;
}
