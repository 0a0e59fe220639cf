/** js-yaml's `maxAliases`: 30 can name about 60,000 nodes, a few more billions. */
export const MAX_ALIASES = 30;

/** Why parsed data exceeds `limit` bytes as JSON, aliases expanded (28 over a 60 KB string name a gigabyte). */
export function expansionProblem(data: unknown, text: string, limit: number): string | undefined {
  if (!text.includes('*')) return undefined;
  const known = new Map<object, number>();
  const size = (value: unknown): number => {
    if (typeof value === 'string') return value.length + 2;
    if (value === null || typeof value !== 'object') return String(value).length;
    const seen = known.get(value);
    if (seen !== undefined) return seen;
    let total = 2;
    for (const [key, item] of Object.entries(value)) {
      total += (Array.isArray(value) ? 1 : key.length + 4) + size(item);
      if (total > limit) break;
    }
    known.set(value, total);
    return total;
  };
  try {
    if (size(data) <= limit) return undefined;
  } catch {
    return 'nests too deeply (or an alias *name is used inside its own anchor)';
  }
  return `expands to more than ${limit / 2 ** 20} MiB once its aliases (*name) are followed; write the data out, or use fewer aliases`;
}
