/** Routing (D10): templates parsed once, matched as the judge matches them, literal paths first. */
import {
  isLiteralTemplate,
  matchPathTemplate,
  type PathTemplate,
  parsePathTemplate,
} from '../contract/path-template.js';

type RouteMatch<T> =
  | { kind: 'match'; target: T; params: Readonly<Record<string, string>>; allow: readonly string[] }
  | { kind: 'method-not-allowed'; allow: readonly string[] }
  | { kind: 'not-found' };

/** Percent-decodes; a broken escape (`%zz`) leaves the text as written, so it matches no literal. */
export function decodeLoosely(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** A matcher of routes: upper-case `method`, full path template (`/v1/pets/{petId}`), and what it names. */
export function compileRouter<T>(
  routes: readonly { method: string; path: string; target: T }[],
): (method: string, pathname: string) => RouteMatch<T> {
  // Each path's methods, and its `Allow`: those plus OPTIONS, which every path answers (CORS preflight, D14).
  const byPath = new Map<string, { template: PathTemplate; methods: Map<string, T>; allow: string[] }>();
  for (const { method, path, target } of routes) {
    const entry = byPath.get(path) ?? { template: parsePathTemplate(path), methods: new Map(), allow: [] };
    byPath.set(path, entry);
    if (entry.methods.has(method)) throw new Error(`duplicate route ${method} ${path}`);
    entry.methods.set(method, target);
    entry.allow = [...entry.methods.keys(), 'OPTIONS'];
  }
  const literalFirst = [...byPath.values()].sort(
    (a, b) => Number(isLiteralTemplate(b.template)) - Number(isLiteralTemplate(a.template)),
  );

  return (method, pathname) => {
    // Decoded per segment: `%6Frders` names the orders, while `%2F` stays inside its segment.
    const parts = pathname.includes('%') ? pathname.split('/').map(decodeLoosely) : pathname.split('/');
    for (const entry of literalFirst) {
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
