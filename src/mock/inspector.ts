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
 */
import type { Contract } from '../contract/index.js';
import { operationIds } from './control-operations.js';
import { INSPECTOR_CSS, INSPECTOR_HTML, INSPECTOR_MARKUP, INSPECTOR_SCRIPT } from './inspector-assets.js';
import type { CoreResponse } from './responses.js';

export const INSPECTOR_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** The page, its script (which offers the contract's operations for faults) and its style. */
function assets(contract: Contract): Readonly<Record<string, { type: string; body: () => string }>> {
  return {
    '/__mock/': { type: 'text/html; charset=utf-8', body: () => INSPECTOR_HTML },
    '/__mock/inspector.js': {
      type: 'text/javascript; charset=utf-8',
      body: () =>
        `const OPERATIONS = ${JSON.stringify(operationIds(contract))};\nconst MARKUP = ${JSON.stringify(INSPECTOR_MARKUP)};\n${INSPECTOR_SCRIPT}`,
    },
    '/__mock/inspector.css': { type: 'text/css; charset=utf-8', body: () => INSPECTOR_CSS },
  };
}

/**
 * The inspector's page, script or style for a `GET` of its path, or `undefined` for any other request.
 *
 * @example inspectorAsset(contract, 'GET', '/__mock/')?.headers['content-type'] // 'text/html; charset=utf-8'
 */
export function inspectorAsset(
  contract: Contract,
  method: string,
  pathname: string,
): CoreResponse | undefined {
  if (method !== 'GET') return undefined;
  const asset = assets(contract)[pathname];
  if (!asset) return undefined;
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
    body: asset.body(),
    session: undefined,
  };
}
