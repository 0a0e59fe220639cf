/**
 * Finds where the document's response bodies hold int64 values, for the typed client (D17): it turns
 * exactly those values into decimal strings, whatever their size, so a value's type never depends on it.
 */
import type { OpenAPI3 } from 'openapi-typescript';

/** `true`: an int64; `items`: each element of an array; `properties`: members of an object. */
export type Int64Location = true | { items?: Int64Location; properties?: Record<string, Int64Location> };

/** Per operation (`GET /store/orders`), per status (`"200"`), where its JSON body holds int64 values. */
export type Int64Locations = Record<string, Record<string, Int64Location>>;

type Node = Record<string, unknown>;

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Follows local `$ref`s (`#/components/...`); the document has no other kind. */
function resolve(document: unknown, node: unknown, seen: ReadonlySet<string> = new Set()): Node | undefined {
  if (!isNode(node)) return undefined;
  const ref = node.$ref;
  if (typeof ref !== 'string') return node;
  if (seen.has(ref) || !ref.startsWith('#/')) return undefined;
  let target: unknown = document;
  for (const part of ref.slice(2).split('/')) {
    target = isNode(target) ? target[part.replaceAll('~1', '/').replaceAll('~0', '~')] : undefined;
  }
  return resolve(document, target, new Set([...seen, ref]));
}

function locate(document: unknown, node: unknown, seen: ReadonlySet<string>): Int64Location | undefined {
  const schema = resolve(document, node, seen);
  if (!schema) return undefined;
  const inside =
    typeof (node as Node).$ref === 'string' ? new Set([...seen, (node as Node).$ref as string]) : seen;
  if (schema.format === 'int64') return true;
  const found: { items?: Int64Location; properties?: Record<string, Int64Location> } = {};
  const items = schema.items === undefined ? undefined : locate(document, schema.items, inside);
  if (items) found.items = items;
  const properties = Object.entries(isNode(schema.properties) ? schema.properties : {}).flatMap(
    ([name, property]) => {
      const location = locate(document, property, inside);
      return location ? [[name, location] as const] : [];
    },
  );
  if (properties.length > 0) found.properties = Object.fromEntries(properties);
  return found.items || found.properties ? found : undefined;
}

/**
 * Every response body of the document that holds an int64, with where it holds it.
 *
 * @example int64Locations(document)['GET /store/orders'] // { '200': { items: { properties: { id: true, petId: true } } } }
 */
export function int64Locations(document: OpenAPI3): Int64Locations {
  const result: Int64Locations = {};
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    const pathItem = resolve(document, item);
    for (const method of METHODS) {
      const operation = pathItem?.[method];
      if (!isNode(operation) || !isNode(operation.responses)) continue;
      for (const [status, response] of Object.entries(operation.responses)) {
        const content = resolve(document, response)?.content;
        const media = isNode(content) ? content['application/json'] : undefined;
        const location = isNode(media) ? locate(document, media.schema, new Set()) : undefined;
        if (!location) continue;
        const key = `${method.toUpperCase()} ${path}`;
        result[key] = { ...result[key], [status]: location };
      }
    }
  }
  return result;
}
