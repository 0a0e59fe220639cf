/**
 * The state inspector at `GET /__mock/`: a page that is a client of the control endpoints and nothing more.
 * Its assets hold no data and no key, so they are served without one; the CSP allows same-origin script,
 * style and fetch only, and no framing. An option of the core, so MSW pages carry it only when asked.
 */
import type { Contract } from '../contract/index.js';
import { INSPECTOR_CSS, INSPECTOR_HTML, INSPECTOR_MARKUP, INSPECTOR_SCRIPT } from './inspector-assets.js';
import type { CoreResponse } from './responses.js';

/**
 * What serves the inspector: its page, script or style for a `GET` of its path, `undefined` for any
 * other request. The core's `inspector` option.
 */
export type Inspector = (contract: Contract, method: string, pathname: string) => CoreResponse | undefined;

export const INSPECTOR_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/**
 * The page, its script (which offers the contract's operations for faults and cancels under its base
 * path) and its style, by path.
 */
const ASSETS: Readonly<Record<string, { type: string; body: (contract: Contract) => string }>> = {
  '/__mock/': { type: 'text/html; charset=utf-8', body: () => INSPECTOR_HTML },
  '/__mock/inspector.js': {
    type: 'text/javascript; charset=utf-8',
    body: (contract) =>
      `const OPERATIONS = ${JSON.stringify(contract.operations.map((op) => op.operationId))};\nconst API_BASE = ${JSON.stringify(contract.basePath)};\nconst MARKUP = ${JSON.stringify(INSPECTOR_MARKUP)};\n${INSPECTOR_SCRIPT}`,
  },
  '/__mock/inspector.css': { type: 'text/css; charset=utf-8', body: () => INSPECTOR_CSS },
};

/**
 * The state inspector, as the core's `inspector` option.
 *
 * @example inspector(contract, 'GET', '/__mock/')?.headers['content-type'] // 'text/html; charset=utf-8'
 */
export const inspector: Inspector = (contract, method, pathname) => {
  if (method !== 'GET') return undefined;
  const asset = ASSETS[pathname];
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
    body: asset.body(contract),
    session: undefined,
  };
};
