/**
 * Routing: path templates compiled once at start-up into lookups. A path without parameters is one Map
 * lookup; a templated path is matched segment by segment. Unknown paths and unsupported methods are
 * answers of their own (D10), so the caller can send 404 or 405 with `Allow`.
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

const NO_PARAMS: Readonly<Record<string, string>> = Object.freeze({});

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

function found<T>(
  entry: PathEntry<T>,
  method: string,
  params: Readonly<Record<string, string>>,
): RouteMatch<T> {
  const target = entry.methods.get(method);
  return target === undefined
    ? { kind: 'method-not-allowed', allow: entry.allow }
    : { kind: 'match', target, params, allow: entry.allow };
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
  const literal = new Map<string, PathEntry<T>>();
  const templated: PathEntry<T>[] = [];
  for (const [path, entry] of byPath) {
    entry.allow = [...entry.methods.keys(), 'OPTIONS'];
    if (entry.segments.every((segment) => 'literal' in segment)) literal.set(path, entry);
    else templated.push(entry);
  }

  return (method, pathname) => {
    const exact = literal.get(pathname);
    if (exact) return found(exact, method, NO_PARAMS);
    const parts = pathname.split('/');
    for (const entry of templated) {
      if (entry.segments.length !== parts.length) continue;
      const params: Record<string, string> = {};
      let matches = true;
      for (let i = 0; i < parts.length && matches; i++) {
        const segment = entry.segments[i] as Segment;
        const part = decodeSegment(parts[i] as string);
        // An empty segment fills no parameter: `/v1/store/orders/` is a path of its own, not order "" (D10).
        if ('param' in segment) {
          params[segment.param] = part;
          matches = part !== '';
        } else matches = segment.literal === part;
      }
      if (matches) return found(entry, method, params);
    }
    // A literal path written with percent-escapes (`/v1/store/%6Frders`) names the same resource.
    if (pathname.includes('%')) {
      const decoded = parts.map(decodeSegment);
      // `%2F` inside a segment is data, not a separator: `/v1/store%2Forders` names nothing.
      const entry = decoded.some((part) => part.includes('/')) ? undefined : literal.get(decoded.join('/'));
      if (entry) return found(entry, method, NO_PARAMS);
    }
    return { kind: 'not-found' };
  };
}
