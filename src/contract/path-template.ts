/** Path templates matched by plain string comparisons, so no character of a document's path is a pattern. */

/** Per segment, its literal texts with a parameter between each two (`orders({id})`). */
export type PathTemplate = ReadonlyArray<{ literals: string[]; params: string[] }>;

export function parsePathTemplate(template: string): PathTemplate {
  return template.split('/').map((segment) => {
    const parts = segment.split(/\{([^}]*)\}/);
    return { literals: parts.filter((_, i) => i % 2 === 0), params: parts.filter((_, i) => i % 2 === 1) };
  });
}

export function isLiteralTemplate(template: PathTemplate): boolean {
  return template.every((segment) => segment.params.length === 0);
}

/** The parameters of a path (split at `/`) matching the template; an empty segment fills none (D10). */
export function matchPathTemplate(
  template: PathTemplate,
  parts: readonly string[],
): Record<string, string> | undefined {
  if (template.length !== parts.length) return undefined;
  const params: Record<string, string> = {};
  for (const [i, { literals, params: names }] of template.entries()) {
    const part = parts[i] as string;
    const first = literals[0] as string;
    if (!part.startsWith(first)) return undefined;
    let at = first.length;
    for (const [n, name] of names.entries()) {
      const next = literals[n + 1] as string;
      const last = n === names.length - 1;
      const end = last ? (part.endsWith(next) ? part.length - next.length : -1) : part.indexOf(next, at + 1);
      if (end <= at) return undefined;
      params[name] = part.slice(at, end);
      at = end + next.length;
    }
    if (at !== part.length) return undefined;
  }
  return params;
}
