/**
 * The mock's default fixtures, `fixtures/default.yaml`, as a TypeScript value for
 * `petstore-contract-toolkit/fixtures`: a page or a test gets the data without reading a file or carrying a
 * YAML parser. Ids become the decimal strings the typed client hands over (D17), so the value survives
 * `JSON.stringify`, compares with the client's ids with `===`, and seeds the mock unchanged.
 */
import { parse } from 'yaml';

/** Where the fixture format holds int64 ids; every other integer (`quantity`) is a plain number. */
const ID_FIELDS: Record<string, readonly string[]> = { orders: ['id', 'petId'], pets: ['id'] };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The fixture text as JSON text, ids as exact decimal strings. Throws on data it cannot copy exactly. */
export function defaultFixturesJson(text: string): string {
  // Integers as bigints: a double would round 9007199254740993 before it could become a string.
  const data: unknown = parse(text, { intAsBigInt: true });
  if (!isRecord(data)) throw new Error('fixtures/default.yaml must hold a mapping');
  for (const [collection, fields] of Object.entries(ID_FIELDS)) {
    const list = data[collection];
    if (!Array.isArray(list)) continue;
    for (const entry of list) {
      if (!isRecord(entry)) continue;
      for (const field of fields) {
        if (typeof entry[field] === 'bigint') entry[field] = String(entry[field]);
      }
    }
  }
  return JSON.stringify(
    data,
    (key, value: unknown) => {
      if (typeof value !== 'bigint') return value;
      if (Number.isSafeInteger(Number(value))) return Number(value);
      throw new Error(`fixtures/default.yaml: ${key} is ${value}, beyond 2^53, and not an id`);
    },
    2,
  );
}
