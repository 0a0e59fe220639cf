/**
 * Routing: path templates compiled once at start-up, matched segment by segment, literal paths before
 * templated ones. Unknown paths and unsupported methods are answers of their own (D10), so the caller can
 * send 404 or 405 with `Allow`.
 */

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

type Segment = { literal: string } | { param: string };

interface PathEntry<T> {
  segments: readonly Segment[];
  methods: Map<string, T>;
  /** The methods of this path plus OPTIONS, which every path answers (CORS preflight, D14). */
  allow: string[];
}

export type Router<T> = (method: string, pathname: string) => RouteMatch<T>;

function parseTemplate(path: string): Segment[] {
  return path.split('/').map((part) => {
    const param = /^\{([^}]+)\}$/.exec(part)?.[1];
    return param === undefined ? { literal: part } : { param };
  });
}

/** Percent-decodes one segment; a broken escape (`%zz`) stays as written and matches no literal. */
function decodeSegment(segment: string): string {
  if (!segment.includes('%')) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The parameters of `parts` (a path split at `/`) when it matches the template, else `undefined`. */
function matchSegments(
  segments: readonly Segment[],
  parts: readonly string[],
): Record<string, string> | undefined {
  if (segments.length !== parts.length) return undefined;
  const params: Record<string, string> = {};
  for (const [i, segment] of segments.entries()) {
    // Percent-escapes are decoded per segment: `/v1/store/%6Frders` names the orders, while `%2F` stays
    // inside its segment, so `/v1/store%2Forders` names nothing.
    const part = decodeSegment(parts[i] as string);
    if ('literal' in segment) {
      if (segment.literal !== part) return undefined;
    } else {
      // An empty segment fills no parameter: `/v1/store/orders/` is a path of its own, not order "" (D10).
      if (part === '') return undefined;
      params[segment.param] = part;
    }
  }
  return params;
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
      entry = { segments: parseTemplate(route.path), methods: new Map(), allow: [] };
      byPath.set(route.path, entry);
    }
    if (entry.methods.has(route.method)) throw new Error(`duplicate route ${route.method} ${route.path}`);
    entry.methods.set(route.method, route.target);
  }
  for (const entry of byPath.values()) entry.allow = [...entry.methods.keys(), 'OPTIONS'];
  const isLiteral = (entry: PathEntry<T>) => entry.segments.every((segment) => 'literal' in segment);
  const entries = [...byPath.values()].sort((a, b) => Number(isLiteral(b)) - Number(isLiteral(a)));

  return (method, pathname) => {
    const parts = pathname.split('/');
    for (const entry of entries) {
      const params = matchSegments(entry.segments, parts);
      if (params === undefined) continue;
      const target = entry.methods.get(method);
      return target === undefined
        ? { kind: 'method-not-allowed', allow: entry.allow }
        : { kind: 'match', target, params, allow: entry.allow };
    }
    return { kind: 'not-found' };
  };
}
