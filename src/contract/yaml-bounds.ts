/**
 * Bounds on what a YAML text may name once parsed, for every YAML the toolkit reads from a user (fixture
 * files, `--spec` documents): aliases (`*name`) are copies by reference that every later walk expands.
 */

/**
 * The most aliases one text may use: thirty can still name about 60,000 nodes (3^10), a few more could
 * name billions. Fixtures and documents seldom need any. Give it to js-yaml's `load` as `maxAliases`.
 */
export const MAX_ALIASES = 30;

/**
 * The size of a value as JSON text, aliases expanded, counting each shared node once per use but
 * walking it once; stops counting once over `limit`. js-yaml gives every use of an anchor the same object.
 */
function expandedSize(root: unknown, limit: number): number {
  const known = new Map<object, number>();
  const size = (value: unknown): number => {
    if (typeof value === 'string') return value.length + 2;
    if (value === null || typeof value !== 'object') return String(value).length;
    const seen = known.get(value);
    if (seen !== undefined) return seen;
    let total = 2;
    if (Array.isArray(value)) {
      for (const item of value) {
        total += size(item) + 1;
        if (total > limit) break;
      }
    } else {
      for (const [key, item] of Object.entries(value)) {
        total += key.length + 4 + size(item);
        if (total > limit) break;
      }
    }
    known.set(value, total);
    return total;
  };
  return size(root);
}

/**
 * Why parsed data is too large to use once its aliases are expanded (more than `limit` bytes as JSON
 * text), or `undefined` when it is not. The alias cap alone is not enough: 28 aliases nested two by two
 * over a 60 KB string name a gigabyte, which no string or buffer can hold ("Invalid string length").
 *
 * @example expansionProblem(load(text, { maxAliases: MAX_ALIASES }), text, 8 * 2 ** 20) // undefined, or the reason
 */
export function expansionProblem(data: unknown, text: string, limit: number): string | undefined {
  // Without `*` there is no alias, and the data is about the size of the text the file cap bounds.
  if (!text.includes('*')) return undefined;
  let size: number;
  try {
    size = expandedSize(data, limit);
  } catch {
    // Only a nesting deeper than the stack gets here, or an alias inside its own anchor (a cycle).
    return 'nests too deeply (or an alias *name is used inside its own anchor)';
  }
  if (size <= limit) return undefined;
  return `expands to more than ${limit / 2 ** 20} MiB once its aliases (*name) are followed; write the data out, or use fewer aliases`;
}
