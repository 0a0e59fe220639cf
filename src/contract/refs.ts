/** Following a document's local `$ref`s, and rewriting component refs to the ids Ajv knows them by. */

export type JsonObject = Record<string, unknown>;

export const SCHEMA_ID_BASE = 'https://petstore.contract/components/schemas/';
export const COMPONENT_SCHEMA = '#/components/schemas/';

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The node a local JSON pointer (`#/components/schemas/Order`, `#`) names inside `root`, or `undefined`. */
export function pointerTarget(root: unknown, pointer: string): unknown {
  let target = root;
  for (const segment of pointer === '#' ? [] : pointer.slice(2).split('/')) {
    const key = segment.replace(/~1/g, '/').replace(/~0/g, '~');
    target = isObject(target) ? target[key] : undefined;
  }
  return target;
}

export function resolveRef(document: JsonObject, node: unknown): unknown {
  let current = node;
  for (let hops = 0; isObject(current) && typeof current.$ref === 'string'; hops++) {
    const ref = current.$ref;
    if (!ref.startsWith('#/')) throw new Error(`only local $refs are supported, found ${ref}`);
    if (hops === 32) throw new Error(`the $ref ${ref} leads back to itself`);
    current = pointerTarget(document, ref);
    if (current === undefined) throw new Error(`unresolved $ref ${ref}`);
  }
  return current;
}

/** A copy of a schema, its component refs at {@link SCHEMA_ID_BASE}; `x-` keywords met go to `extensions`. */
export function prepareSchema(schema: unknown, extensions: Set<string>): unknown {
  if (Array.isArray(schema)) return schema.map((item) => prepareSchema(item, extensions));
  if (!isObject(schema)) return schema;
  const entries = Object.entries(schema).map(([key, value]) => {
    if (key.startsWith('x-')) extensions.add(key);
    if (key === '$ref' && typeof value === 'string' && value.startsWith(COMPONENT_SCHEMA))
      return [key, SCHEMA_ID_BASE + value.slice(COMPONENT_SCHEMA.length)];
    return [key, key === 'examples' || key === 'example' ? value : prepareSchema(value, extensions)];
  });
  return Object.fromEntries(entries);
}
