/**
 * The state inspector at `GET /__mock/`: a page that shows each session's orders, the planned faults and
 * the request timeline, with buttons to reset, cancel and plan a fault. It is a client of the control
 * endpoints and nothing more, so it can do exactly what a test can, with the same key.
 *
 * The page, its script and its style hold no data and no key, so they are served without one (a browser
 * cannot send a bearer token when it opens a page); every datum then comes from the JSON endpoints, which
 * need the key the developer types in. The core still refuses them to a foreign origin's page (D14), and
 * the CSP allows same-origin script, style and fetch only, and no framing, so another site can neither
 * run its script in the page nor trick a click on its buttons.
 *
 * The page's text (inspector-assets.ts, about 12 kB) is an option of the core, not an import: the mock on a
 * port always passes it (index.ts), while the MSW entry, which a page loads, carries it only when the
 * developer imports `petstore-contract-toolkit/msw/inspector` and passes it to `createHandlers`. Without it
 * the inspector's paths answer a 404 that says so.
 */
import type { Contract } from '../contract/index.js';
import { operationIds } from './control-operations.js';
import { mockError } from './errors.js';
import { type CoreResponse, errorResponse } from './responses.js';

/** The inspector's page, its visible part (for the script to build inside another page), script and style. */
export interface InspectorAssets {
  readonly html: string;
  readonly markup: string;
  readonly script: string;
  readonly css: string;
}

export const INSPECTOR_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** The page, its script (which offers the contract's operations for faults) and its style, by path. */
const ASSETS: Readonly<
  Record<string, { type: string; body: (page: InspectorAssets, contract: Contract) => string }>
> = {
  '/__mock/': { type: 'text/html; charset=utf-8', body: (page) => page.html },
  '/__mock/inspector.js': {
    type: 'text/javascript; charset=utf-8',
    body: (page, contract) =>
      `const OPERATIONS = ${JSON.stringify(operationIds(contract))};\nconst MARKUP = ${JSON.stringify(page.markup)};\n${page.script}`,
  },
  '/__mock/inspector.css': { type: 'text/css; charset=utf-8', body: (page) => page.css },
};

const NOT_BUNDLED = mockError('notFound', {
  message:
    "The state inspector is not in these handlers: import { inspector } from 'petstore-contract-toolkit/msw/inspector' and pass createHandlers({ inspector, ... }).",
});

/**
 * The inspector's page, script or style for a `GET` of its path, or `undefined` for any other request.
 * With no `assets` (MSW without the inspector), its paths are a 404 naming the import that adds it.
 *
 * @example inspectorAsset(contract, INSPECTOR_ASSETS, 'GET', '/__mock/')?.headers['content-type'] // 'text/html; charset=utf-8'
 */
export function inspectorAsset(
  contract: Contract,
  assets: InspectorAssets | undefined,
  method: string,
  pathname: string,
): CoreResponse | undefined {
  if (method !== 'GET') return undefined;
  const asset = ASSETS[pathname];
  if (!asset) return undefined;
  if (!assets) return errorResponse(NOT_BUNDLED, undefined);
  return {
    status: 200,
    headers: {
      'content-type': asset.type,
      'content-security-policy': INSPECTOR_CSP,
      'x-frame-options': 'DENY',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-store',
    },
    body: asset.body(assets, contract),
    session: undefined,
  };
}
