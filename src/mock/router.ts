/**
 * Routing: path templates parsed once at start-up, matched segment by segment (`path-template.ts`, as
 * the judge matches them), literal paths before templated ones. Unknown paths and unsupported methods
 * are answers of their own (D10), so the caller can send 404 or 405 with `Allow`.
 */

import {
  isLiteralTemplate,
  matchPathTemplate,
  type PathTemplate,
  parsePathTemplate,
} from '../contract/path-template.js';

export interface RouteSpec<T> {
  /** Upper-case method: `GET`. */
  method: string;
  /** Full path template: `/v1/store/orders/{orderId}`. */
  path: string;
  target: T;
}

export type RouteMatch<T> =
  | { kind: 'match'; target: T; params: Readonly<Record<string, string>>; allow: readonly string[] }
  | { kind: 'method-not-allowed'; allow: readonly string[] }
  | { kind: 'not-found' };

interface PathEntry<T> {
  template: PathTemplate;
  methods: Map<string, T>;
  /** The methods of this path plus OPTIONS, which every path answers (CORS preflight, D14). */
  allow: string[];
}

export type Router<T> = (method: string, pathname: string) => RouteMatch<T>;

/** Percent-decodes one segment; a broken escape (`%zz`) stays as written and matches no literal. */
function decodeSegment(segment: string): string {
  if (!segment.includes('%')) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * Compiles routes into a matcher.
 *
 * @example compileRouter([{ method: 'GET', path: '/v1/pets/{petId}', target: 'getPet' }])('GET', '/v1/pets/10')
 * // { kind: 'match', target: 'getPet', params: { petId: '10' }, allow: ['GET', 'OPTIONS'] }
 */
export function compileRouter<T>(routes: readonly RouteSpec<T>[]): Router<T> {
  const byPath = new Map<string, PathEntry<T>>();
  for (const route of routes) {
    let entry = byPath.get(route.path);
    if (!entry) {
      entry = { template: parsePathTemplate(route.path), methods: new Map(), allow: [] };
      byPath.set(route.path, entry);
    }
    if (entry.methods.has(route.method)) throw new Error(`duplicate route ${route.method} ${route.path}`);
    entry.methods.set(route.method, route.target);
  }
  for (const entry of byPath.values()) entry.allow = [...entry.methods.keys(), 'OPTIONS'];
  const isLiteral = (entry: PathEntry<T>) => isLiteralTemplate(entry.template);
  const entries = [...byPath.values()].sort((a, b) => Number(isLiteral(b)) - Number(isLiteral(a)));

  return (method, pathname) => {
    // Percent-escapes are decoded per segment: `/v1/store/%6Frders` names the orders, while `%2F` stays
    // inside its segment, so `/v1/store%2Forders` names nothing.
    const parts = pathname.split('/').map(decodeSegment);
    for (const entry of entries) {
      const params = matchPathTemplate(entry.template, parts);
      if (params === undefined) continue;
      const target = entry.methods.get(method);
      return target === undefined
        ? { kind: 'method-not-allowed', allow: entry.allow }
        : { kind: 'match', target, params, allow: entry.allow };
    }
    return { kind: 'not-found' };
  };
}
