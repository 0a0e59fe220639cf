/** Fixtures, checked against `fixtures.schema.json` and the Order schema, integers exact (D8); no YAML. */
import type { ErrorObject } from 'ajv/dist/2020.js';
import {
  type Contract,
  defaultContract,
  type ExactJson,
  INT64_MAX,
  INT64_MIN,
  type Int64,
  parseInt64,
  stateTable,
  stringifyExactJson,
  validationView,
} from '../contract/index.js';
import { validateFixtures } from '../generated/fixtures-validator.js';
import { fail, ok, type Result } from '../result.js';
import { clip } from './errors.js';
import { OrderBase, type StoredOrder } from './order-store.js';
import { type Bytes, utf8 } from './responses.js';

/** The development key, used when neither flags, environment nor fixtures name one. */
export const DEV_API_KEY = 'petstore-dev-key';

/** An int64 in fixtures: a safe number, a bigint, or the typed client's decimal string. */
export type FixtureInt64 = Int64 | `${bigint}`;

type FixtureState = 'pending' | 'shipped' | 'cancelled';

/** An order of a fixture file or the client's list (issue 24): `status`, `state`, else `complete` (D1). */
export interface FixtureOrder {
  id?: FixtureInt64;
  petId?: FixtureInt64;
  quantity?: number | bigint;
  shipDate?: string;
  status?: FixtureState;
  state?: FixtureState;
  complete?: boolean;
}

/** A fixture file's content. Integers may be bigints (they are, when read from a file). */
export interface FixtureData {
  /** Where the fixtures came from, in one line (`petstore proxy --record` writes one). */
  description?: string;
  apiKeys?: readonly string[];
  pets?: ReadonlyArray<{ id: FixtureInt64; [field: string]: unknown }>;
  petsDeprecated?: string;
  petsSunset?: string;
  orders?: readonly FixtureOrder[];
}

/** A pet's exact JSON text, and the same encoded once for the response body. */
type StoredPet = { readonly id: bigint; readonly json: string; readonly body: Bytes };

/** Loaded, checked fixtures: what every session is seeded from. */
export interface FixtureSet {
  /** A file path, or `<fixture data>`. */
  readonly source: string;
  readonly description?: string;
  readonly apiKeys: readonly string[];
  readonly orders: OrderBase;
  readonly pets: ReadonlyMap<bigint, StoredPet>;
  /** `Deprecation` (RFC 9745, `@` and Unix time) and `Sunset` (RFC 8594, HTTP date). */
  readonly deprecationHeader: string;
  readonly sunsetHeader: string;
}

/** A fixture file that cannot be used; the message names the file, the entry and the reason. */
export class FixtureError extends Error {
  override name = 'FixtureError';

  constructor(
    readonly source: string,
    readonly problems: readonly string[],
  ) {
    const others = problems.length - 1;
    const more = others > 0 ? ` (and ${others} more problem${others > 1 ? 's' : ''})` : '';
    super(`${source}: ${problems[0] ?? 'invalid fixtures'}${more}`);
  }
}

const MAX_PROBLEMS = 20;

const describe = (value: unknown) =>
  clip(typeof value === 'bigint' ? String(value) : (JSON.stringify(value) ?? String(value)), 60);

/** `orders[3] (id 7): shipDate` or `petsSunset`, and the value there, for a JSON Pointer (RFC 6901). */
function locate(data: unknown, pointer: string): { where: string; value: unknown } {
  const tokens = pointer
    .split('/')
    .slice(1)
    .map((token) => token.replaceAll('~1', '/').replaceAll('~0', '~'));
  const value = tokens.reduce<unknown>(
    (at, key) => (typeof at === 'object' && at !== null ? (at as Record<string, unknown>)[key] : undefined),
    data,
  );
  const [collection = 'the file', index, ...rest] = tokens;
  if (index === undefined || !/^\d+$/.test(index)) return { where: collection, value };
  const item = (data as Record<string, unknown[]>)[collection]?.[Number(index)] as { id?: unknown } | null;
  const entry = `${collection}[${index}]${item?.id === undefined ? '' : ` (id ${describe(item.id)})`}`;
  return { where: rest.length > 0 ? `${entry}: ${rest.join('.')}` : entry, value };
}

/** What each keyword of fixtures.schema.json says after the place: the generated validator has no messages. */
const SAYS: Readonly<Record<string, (params: Record<string, unknown>, got: string) => string>> = {
  enum: (params, got) => ` must be one of ${(params.allowedValues as unknown[]).join(', ')}, got ${got}`,
  additionalProperties: (params) => `: unknown field "${String(params.additionalProperty)}"`,
  required: (params) => `: missing "${String(params.missingProperty)}"`,
  format: (_, got) =>
    ` must be an ISO 8601 date-time with a time zone, such as 2026-12-01T10:00:00Z, got ${got}`,
  pattern: (_, got) => ` must contain only letters, digits and . _ ~ + / - (a bearer token), got ${got}`,
  type: (params, got) => ` must be ${String(params.type)}, got ${got}`,
  minLength: (params) => ` must NOT have fewer than ${String(params.limit)} characters`,
  maxLength: (params) => ` must NOT have more than ${String(params.limit)} characters`,
};

function explain({ instancePath, keyword, params }: Omit<ErrorObject, 'schemaPath'>, data: unknown): string {
  const { where, value } = locate(data, instancePath);
  const says = SAYS[keyword];
  return says
    ? where + says(params as Record<string, unknown>, describe(value))
    : `${where} breaks the fixture schema's ${keyword}`;
}

/** A fixture id as an exact int64 (a decimal string read too), or what is wrong; the schema checks the rest. */
function exactId(value: unknown): Result<unknown, string> {
  if (typeof value === 'string') return parseInt64(value);
  if (Number.isInteger(value) && !Number.isSafeInteger(value)) {
    return fail(`is not exact as a number (${value}); pass a bigint or a decimal string`);
  }
  if (typeof value === 'bigint' && (value < INT64_MIN || value > INT64_MAX)) {
    return fail(`must be within int64 (−2^63 … 2^63−1), got ${value}`);
  }
  return ok(value);
}

const ID_FIELDS = { orders: ['id', 'petId'], pets: ['id'] } as const;

/** A copy of the data with each id exact (decimal strings read as the path grammar does), or the problems. */
function readIds(data: unknown): Result<Record<string, unknown>, string[]> {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    return fail(['the file must hold a mapping with `orders`, `pets`, `apiKeys`']);
  }
  const problems: string[] = [];
  const read: Record<string, unknown> = { ...data };
  for (const [collection, fields] of Object.entries(ID_FIELDS)) {
    const list = read[collection];
    if (!Array.isArray(list)) continue;
    read[collection] = list.map((item: Record<string, unknown> | null, index) => {
      if (typeof item !== 'object' || item === null) return item;
      const entry = { ...item };
      for (const field of fields) {
        const id = exactId(entry[field]);
        if (!id.ok) problems.push(`${collection}[${index}] (id ${describe(item.id)}): ${field} ${id.error}`);
        else if (id.value !== undefined) entry[field] = id.value;
      }
      return entry;
    });
  }
  return problems.length > 0 ? fail(problems.slice(0, MAX_PROBLEMS)) : ok(read);
}

function checkOrder(contract: Contract, order: FixtureOrder, where: string, problems: string[]) {
  const before = problems.length;
  const quantity = order.quantity === undefined ? undefined : Number(order.quantity);
  if (quantity !== undefined && !Number.isSafeInteger(quantity)) {
    problems.push(`${where}: quantity must be a safe integer, got ${describe(order.quantity)}`);
  }
  const { status, state: named, complete, ...published } = order;
  const verdict = contract.validateSchema('Order', published as Record<string, ExactJson>);
  if (!verdict.ok && problems.length === before) {
    for (const violation of verdict.error) {
      problems.push(
        `${where}: ${violation.path.slice(1) || 'order'} ${violation.message} (the document's Order)`,
      );
    }
  }
  // D1: `complete` is true exactly for shipped orders, so a listed order (never cancelled) reads back.
  const state = status ?? named ?? (complete === undefined ? undefined : complete ? 'shipped' : 'pending');
  if (state === undefined) problems.push(`${where}: missing "status" or "complete"`);
  else if (named !== undefined && named !== state) {
    problems.push(`${where}: status "${state}" and state "${named}" differ; give one`);
  }
  if (problems.length > before || state === undefined) return undefined;
  const petId = order.petId === undefined ? undefined : BigInt(order.petId);
  return { id: BigInt(order.id as Int64), petId, quantity, shipDate: order.shipDate, state };
}

/** Checks fixture data against a contract (default the toolkit's); builds what sessions start from. */
export function buildFixtures(given: unknown, contract = defaultContract(), source = '<fixture data>') {
  const exactIds = readIds(given);
  if (!exactIds.ok) return fail(new FixtureError(source, exactIds.error));
  const data = exactIds.value;
  // Generated at build time from fixtures/fixtures.schema.json: no schema compiler in a page (CSP-safe).
  if (!validateFixtures(validationView(data as ExactJson))) {
    const problems = (validateFixtures.errors ?? []).slice(0, MAX_PROBLEMS).map((e) => explain(e, data));
    return fail(new FixtureError(source, problems));
  }
  const fixture = data as FixtureData;
  const problems: string[] = [];
  const orders = new Map<bigint, StoredOrder>();
  for (const [index, entry] of (fixture.orders ?? []).entries()) {
    const where = `orders[${index}] (id ${describe(entry.id)})`;
    const order = checkOrder(contract, entry, where, problems);
    if (order && orders.has(order.id)) problems.push(`${where}: duplicate id ${order.id}`);
    else if (order) orders.set(order.id, order);
    if (problems.length >= MAX_PROBLEMS) break;
  }
  const pets = new Map<bigint, StoredPet>();
  for (const [index, pet] of (fixture.pets ?? []).entries()) {
    const id = BigInt(pet.id);
    if (pets.has(id)) problems.push(`pets[${index}] (id ${describe(pet.id)}): duplicate id ${id}`);
    else {
      const json = stringifyExactJson(pet);
      pets.set(id, { id, json, body: utf8(json) });
    }
  }
  // RFC 3339 allows a leap second (23:59:60), which JavaScript dates cannot hold; the headers need one.
  for (const field of ['petsDeprecated', 'petsSunset'] as const) {
    const value = fixture[field];
    if (value !== undefined && Number.isNaN(Date.parse(value))) {
      problems.push(`${field}: ${describe(value)} cannot be sent as an HTTP date (a leap second?); use :59`);
    }
  }
  if (problems.length > 0) return fail(new FixtureError(source, problems));
  const deprecated = Date.parse(fixture.petsDeprecated ?? '2026-01-01T00:00:00Z');
  return ok<FixtureSet>({
    source,
    description: fixture.description,
    apiKeys: fixture.apiKeys ?? [],
    orders: new OrderBase(orders, stateTable(contract)),
    pets,
    deprecationHeader: `@${Math.floor(deprecated / 1000)}`,
    sunsetHeader: new Date(fixture.petsSunset ?? '2027-06-30T00:00:00Z').toUTCString(),
  });
}
