import { execFileSync } from 'node:child_process';
import { mkdtempSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadFixtureFile, loadFixtures, MAX_FIXTURE_BYTES } from './fixture-files.js';
import type { FixtureData } from './fixtures.js';
import { aliasBomb } from './test-support/alias-bomb.js';

const decode = (bytes: Uint8Array | undefined): string => new TextDecoder().decode(bytes);

const dir = mkdtempSync(join(tmpdir(), 'petstore-fixtures-'));
function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe('the default fixtures', () => {
  const loaded = loadFixtures(undefined);
  if (!loaded.ok) throw loaded.error;
  const orders = [...loaded.value.orders.orders.values()];

  it('hold a dozen or so orders in both states, with the development key', () => {
    expect(orders.length).toBeGreaterThanOrEqual(12);
    expect(orders.filter((order) => order.state === 'pending').length).toBeGreaterThanOrEqual(5);
    expect(orders.filter((order) => order.state === 'shipped').length).toBeGreaterThanOrEqual(5);
    expect(loaded.value.apiKeys).toEqual(['petstore-dev-key']);
    expect(loaded.value.pets.size).toBeGreaterThanOrEqual(3);
  });

  it('keep ids above 2^53 exact (D8)', () => {
    expect(loaded.value.orders.orders.get(9007199254740993n)?.state).toBe('pending');
    expect(loaded.value.orders.orders.get(2n ** 63n - 1n)?.state).toBe('shipped');
    expect(decode(loaded.value.orders.listBody())).toContain('"id":9007199254740993,');
  });

  it('turn the pet dates into Deprecation and Sunset header values (D11)', () => {
    expect(loaded.value.deprecationHeader).toBe('@1767225600');
    expect(loaded.value.sunsetHeader).toBe('Wed, 30 Jun 2027 00:00:00 GMT');
  });
});

describe('fixture problems are rejected with the entry and the reason', () => {
  const order = { petId: 10, quantity: 1, shipDate: '2026-12-01T10:00:00Z' };
  it.each<{ name: string; given: FixtureData | Record<string, unknown>; want: RegExp }>([
    {
      name: 'a duplicate id',
      given: {
        orders: [
          { id: 1, status: 'pending' },
          { id: 1, status: 'shipped' },
        ],
      },
      want: /orders\[1\] \(id 1\): duplicate id 1/,
    },
    {
      name: 'a leap-second sunset date',
      given: { orders: [], petsSunset: '2026-12-31T23:59:60Z' },
      want: /petsSunset: "2026-12-31T23:59:60Z" cannot be sent as an HTTP date/,
    },
    {
      name: 'a leap-second deprecation date',
      given: { orders: [], petsDeprecated: '2025-12-31T23:59:60Z' },
      want: /petsDeprecated: "2025-12-31T23:59:60Z" cannot be sent as an HTTP date/,
    },
    {
      name: 'an unknown state',
      given: { orders: [{ id: 1, status: 'lost' }] },
      want: /orders\[0\] \(id 1\): status must be one of pending, shipped, cancelled, got "lost"/,
    },
    {
      name: 'an impossible date',
      given: { orders: [{ ...order, id: 3, shipDate: '2026-02-30T10:00:00Z', status: 'pending' }] },
      want: /orders\[0\] \(id 3\): shipDate must be an ISO 8601 date-time/,
    },
    {
      name: 'a date without a time zone',
      given: { orders: [{ id: 3, shipDate: '2026-12-01T10:00:00', status: 'pending' }] },
      want: /shipDate must be an ISO 8601 date-time/,
    },
    {
      name: 'a non-integer id',
      given: { orders: [{ id: 1.5, status: 'pending' }] },
      want: /id must be integer, got 1.5/,
    },
    {
      name: 'an id beyond int64',
      given: { orders: [{ id: 2n ** 63n, status: 'pending' }] },
      want: /orders\[0\] \(id 9223372036854775808\): id must be within int64/,
    },
    {
      name: 'an inexact number id',
      given: { orders: [{ id: 2 ** 60, status: 'pending' }] },
      want: /orders\[0\] \(id 1152921504606847000\): id is not exact as a number \(1152921504606847000\); pass a bigint or a decimal string/,
    },
    { name: 'a missing id', given: { orders: [{ status: 'pending' }] }, want: /orders\[0\]: missing "id"/ },
    {
      name: 'an order without a state',
      given: { orders: [{ id: 1, quantity: 2 }] },
      want: /^orders\[0\] \(id 1\): missing "status" or "complete"$/m,
    },
    {
      name: 'a complete that is not a boolean',
      given: { orders: [{ id: 1, complete: 'yes' }] },
      want: /orders\[0\] \(id 1\): complete must be boolean, got "yes"/,
    },
    {
      name: 'a status and a state that differ',
      given: { orders: [{ id: 1, status: 'pending', state: 'shipped' }] },
      want: /orders\[0\] \(id 1\): status "pending" and state "shipped" differ; give one/,
    },
    { name: 'an unknown top-level field', given: { order: [] }, want: /the file: unknown field "order"/ },
    {
      name: 'a duplicate pet',
      given: { pets: [{ id: 1 }, { id: 1 }] },
      want: /pets\[1\] \(id 1\): duplicate id 1/,
    },
    {
      name: 'a key that cannot be a bearer token',
      given: { apiKeys: ['has space'] },
      want: /apiKeys\[0\] must contain only letters/,
    },
    {
      name: 'an empty key',
      given: { apiKeys: [''] },
      want: /^apiKeys\[0\] must NOT have fewer than 1 characters$/m,
    },
    {
      name: 'a key longer than 512 characters',
      given: { apiKeys: ['k'.repeat(513)] },
      want: /^apiKeys\[0\] must NOT have more than 512 characters$/m,
    },
  ])('rejects $name', ({ given, want }) => {
    const outcome = loadFixtures(given as FixtureData);
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) {
      expect(outcome.error.problems.join('\n')).toMatch(want);
      expect(outcome.error.message).toMatch(/^<fixture data>: /);
    }
  });
});

describe('orders as the typed client lists them (issue 24)', () => {
  it.each<{ name: string; given: FixtureData['orders']; want: string }>([
    { name: 'complete: true as shipped', given: [{ id: '7', complete: true }], want: 'shipped' },
    { name: 'complete: false as pending', given: [{ id: '7', complete: false }], want: 'pending' },
    {
      name: 'an explicit status over complete',
      given: [{ id: '7', complete: true, status: 'pending' }],
      want: 'pending',
    },
    {
      name: 'an explicit state over complete',
      given: [{ id: '7', complete: false, state: 'cancelled' }],
      want: 'cancelled',
    },
    {
      name: 'a status and the same state',
      given: [{ id: '7', status: 'shipped', state: 'shipped' }],
      want: 'shipped',
    },
  ])('reads $name', ({ given, want }) => {
    const loaded = loadFixtures({ orders: given });
    if (!loaded.ok) throw loaded.error;
    expect(loaded.value.orders.orders.get(7n)?.state).toBe(want);
  });
});

describe('ids as the decimal strings the typed client hands over', () => {
  const ABOVE = 9007199254740993n; // 2^53 + 1: a double cannot hold it
  it.each<{
    name: string;
    given: FixtureData;
    want: { orders: Array<[bigint, bigint | undefined]>; pets: bigint[] };
  }>([
    {
      name: 'reads an order id above 2^53 exactly',
      given: { orders: [{ id: '9007199254740993', status: 'pending' }] },
      want: { orders: [[ABOVE, undefined]], pets: [] },
    },
    {
      name: 'reads petId and pet ids the same way',
      given: {
        pets: [{ id: '9007199254740993' }],
        orders: [{ id: '1', petId: '9007199254740993', status: 'shipped' }],
      },
      want: { orders: [[1n, ABOVE]], pets: [ABOVE] },
    },
    {
      name: 'reads the extremes of int64',
      given: {
        orders: [
          { id: '9223372036854775807', status: 'pending' },
          { id: '-9223372036854775808', status: 'pending' },
        ],
      },
      want: {
        orders: [
          [2n ** 63n - 1n, undefined],
          [-(2n ** 63n), undefined],
        ],
        pets: [],
      },
    },
    {
      name: 'mixes strings, numbers and bigints in one set',
      given: {
        orders: [
          { id: '1', status: 'pending' },
          { id: 2, status: 'pending' },
          { id: 3n, status: 'pending' },
        ],
      },
      want: {
        orders: [
          [1n, undefined],
          [2n, undefined],
          [3n, undefined],
        ],
        pets: [],
      },
    },
  ])('$name', ({ given, want }) => {
    const loaded = loadFixtures(given);
    if (!loaded.ok) throw loaded.error;
    const orders = [...loaded.value.orders.orders.values()].map((order) => [order.id, order.petId]);
    expect(orders).toEqual(want.orders);
    expect([...loaded.value.pets.keys()]).toEqual(want.pets);
  });

  it.each<{ name: string; given: FixtureData | Record<string, unknown>; want: string }>([
    {
      name: 'a fraction',
      given: { orders: [{ id: '1.5', status: 'pending' }] },
      want: 'orders[0] (id "1.5"): id must be an integer written in plain decimal (no sign on 0, no leading zeros), got "1.5"',
    },
    {
      name: 'a word',
      given: { orders: [{ id: 'abc', status: 'pending' }] },
      want: 'orders[0] (id "abc"): id must be an integer written in plain decimal (no sign on 0, no leading zeros), got "abc"',
    },
    {
      name: 'a leading zero, which would name order 1 under another spelling',
      given: { orders: [{ id: '01', status: 'pending' }] },
      want: 'orders[0] (id "01"): id must be an integer written in plain decimal (no sign on 0, no leading zeros), got "01"',
    },
    {
      name: 'an empty string',
      given: { orders: [{ id: '', status: 'pending' }] },
      want: 'orders[0] (id ""): id must be an integer written in plain decimal (no sign on 0, no leading zeros), got ""',
    },
    {
      name: 'an id beyond int64',
      given: { orders: [{ id: '9223372036854775808', status: 'pending' }] },
      want: 'orders[0] (id "9223372036854775808"): id must be within int64 (−2^63 … 2^63−1), got 9223372036854775808',
    },
    {
      name: 'a petId with spaces',
      given: { orders: [{ id: '7', petId: ' 10', status: 'pending' }] },
      want: 'orders[0] (id "7"): petId must be an integer written in plain decimal (no sign on 0, no leading zeros), got " 10"',
    },
    {
      name: 'a pet id with a plus sign',
      given: { pets: [{ id: '+1' }] },
      want: 'pets[0] (id "+1"): id must be an integer written in plain decimal (no sign on 0, no leading zeros), got "+1"',
    },
  ])('refuses a string id that is $name, naming the field', ({ given, want }) => {
    const outcome = loadFixtures(given as FixtureData);
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.error.message).toBe(`<fixture data>: ${want}`);
  });

  it("leaves the caller's fixtures unchanged", () => {
    const given: FixtureData = { orders: [{ id: '9007199254740993', status: 'pending' }] };
    expect(loadFixtures(given).ok).toBe(true);
    expect(given).toEqual({ orders: [{ id: '9007199254740993', status: 'pending' }] });
  });

  it('reads a quoted id in a fixture file the same way', () => {
    const loaded = loadFixtureFile(
      file('quoted.yaml', 'orders: [{ id: "9007199254740993", status: pending }]\n'),
    );
    if (!loaded.ok) throw loaded.error;
    expect([...loaded.value.orders.orders.keys()]).toEqual([ABOVE]);
  });
});

describe('fixture files', () => {
  it('reads YAML with ids above 2^53 exactly', () => {
    const path = file(
      'big.yaml',
      'orders:\n  - { id: 9007199254740993, petId: 9007199254740995, status: shipped }\n',
    );
    const outcome = loadFixtureFile(path);
    expect(outcome.ok && decode(outcome.value.orders.listBody())).toBe(
      '[{"id":9007199254740993,"petId":9007199254740995,"complete":true}]',
    );
  });

  it('reads JSON files the same way', () => {
    const path = file(
      'f.json',
      '{"orders":[{"id":9223372036854775807,"status":"pending"}],"apiKeys":["k1"]}',
    );
    const outcome = loadFixtureFile(path);
    expect(outcome.ok && outcome.value.apiKeys).toEqual(['k1']);
    expect(outcome.ok && outcome.value.orders.orders.has(2n ** 63n - 1n)).toBe(true);
  });

  it.each([
    {
      name: 'broken JSON',
      file: 'broken.json',
      text: '{"orders": [}',
      want: 'broken.json: is not valid YAML or JSON: line 1, column 13: ',
    },
    {
      name: 'broken YAML',
      file: 'broken.yaml',
      text: 'orders:\n  - { id: 1\n  - x\n',
      want: 'broken.yaml: is not valid YAML or JSON: line 3, column 3: ',
    },
    {
      name: 'a key given twice in JSON with the same value',
      file: 'dup-same.json',
      text: '{"apiKeys":["a"],"apiKeys":["a"]}',
      want: 'dup-same.json: is not valid YAML or JSON: line 1, column 19: the key "apiKeys" is given twice in the same mapping',
    },
    {
      name: 'a key given twice in JSON with different values',
      file: 'dup.json',
      text: '{\n  "orders": [],\n  "orders": [{"id": 1, "status": "pending"}]\n}',
      want: 'dup.json: is not valid YAML or JSON: line 3, column 4: the key "orders" is given twice in the same mapping',
    },
    {
      name: 'a key given twice in YAML',
      file: 'dup.yaml',
      text: 'orders: []\napiKeys: [a]\norders: []\n',
      want: 'dup.yaml: is not valid YAML or JSON: line 3, column 1: the key "orders" is given twice in the same mapping',
    },
    {
      name: 'a key given twice inside an order',
      file: 'dup-order.yaml',
      text: 'orders:\n  - { id: 1, status: pending, id: 2 }\n',
      want: 'line 2, column 31: the key "id" is given twice in the same mapping',
    },
  ])('names the line and column of $name', ({ file: name, text, want }) => {
    const outcome = loadFixtureFile(file(name, text));
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.error.message).toContain(want);
  });

  it.each([
    { name: 'a plain integer', given: '9007199254740993', want: 9007199254740993n },
    { name: 'the largest int64', given: '9223372036854775807', want: 2n ** 63n - 1n },
    { name: 'a negative one beyond 2^53', given: '-9007199254740993', want: -9007199254740993n },
    { name: 'a hexadecimal one', given: '0x20000000000001', want: 9007199254740993n },
    { name: 'an octal one', given: '0o400000000000000001', want: 9007199254740993n },
    { name: 'one with leading zeros', given: '0009007199254740993', want: 9007199254740993n },
    { name: 'a small one', given: '+42', want: 42n },
  ])('reads $name exactly', ({ given, want }) => {
    const outcome = loadFixtureFile(file('int.yaml', `orders:\n  - { id: ${given}, status: pending }\n`));
    expect(outcome.ok && [...outcome.value.orders.orders.keys()]).toEqual([want]);
  });

  it('refuses an id beyond int64 written in YAML', () => {
    const outcome = loadFixtureFile(
      file('huge.yaml', 'orders: [{ id: 9223372036854775808, status: pending }]'),
    );
    expect(!outcome.ok && outcome.error.message).toMatch(/id must be within int64/);
  });

  it('refuses more aliases than a fixture file needs', () => {
    const aliases = Array.from({ length: 31 }, (_, i) => `  - { id: ${i + 1}, status: *s }`).join('\n');
    const outcome = loadFixtureFile(file('aliases.yaml', `x: &s pending\norders:\n${aliases}\n`));
    expect(!outcome.ok && outcome.error.message).toMatch(/is not valid YAML or JSON: .*alias/);
    const few = Array.from({ length: 30 }, (_, i) => `  - { id: ${i + 1}, status: *s }`).join('\n');
    const ok = loadFixtureFile(
      file('few-aliases.yaml', `orders:\n  - { id: 0, status: &s pending }\n${few}\n`),
    );
    expect(ok.ok && ok.value.orders.orders.size).toBe(31);
  });

  it.each([
    {
      name: 'refuses aliases under the count cap that expand to a gigabyte (an alias bomb)',
      given: aliasBomb(),
      want: /bomb\.yaml: expands to more than 64 MiB once its aliases \(\*name\) are followed/,
    },
    {
      name: 'takes aliases that expand to a few megabytes',
      given: aliasBomb(6, 58_000),
      want: undefined,
    },
  ])('$name', ({ given, want }) => {
    expect(given.length).toBeLessThan(64_000);
    const outcome = loadFixtureFile(file('bomb.yaml', given));
    if (want === undefined) expect(outcome.ok).toBe(true);
    else expect(!outcome.ok && outcome.error.message).toMatch(want);
  });

  it('reads JSON in a .yaml file, exactly', () => {
    const outcome = loadFixtureFile(
      file('json.yaml', '{"orders":[{"id":9007199254740993,"status":"shipped"}]}'),
    );
    expect(outcome.ok && outcome.value.orders.orders.has(9007199254740993n)).toBe(true);
  });

  it.each([
    { name: 'a missing file', path: () => join(dir, 'nope.yaml'), want: /nope\.yaml: no such file/ },
    { name: 'a folder', path: () => dir, want: /is a folder/ },
    { name: 'a list at the top', path: () => file('list.yaml', '- 1\n'), want: /must hold a mapping/ },
    {
      name: 'an empty file',
      path: () => file('empty.yaml', ''),
      want: /empty\.yaml: holds no fixtures \(it is empty or only comments\); write `orders: \[\]`/,
    },
    {
      name: 'a file of comments only',
      path: () => file('comments.yaml', '# nothing yet\n\n# still nothing\n'),
      want: /comments\.yaml: holds no fixtures/,
    },
    {
      name: 'a FIFO, which would block the read until someone writes to it',
      path: () => {
        const path = join(dir, 'fifo.yaml');
        execFileSync('mkfifo', [path]);
        return path;
      },
      want: /fifo\.yaml: is not a regular file/,
    },
    {
      name: 'a symlink to /dev/zero, which never ends',
      path: () => {
        const path = join(dir, 'zero.yaml');
        symlinkSync('/dev/zero', path);
        return path;
      },
      want: /zero\.yaml: is not a regular file/,
    },
    {
      name: 'a file over the size cap',
      path: () => {
        const path = file('huge.json', '');
        truncateSync(path, MAX_FIXTURE_BYTES + 1);
        return path;
      },
      want: /huge\.json: is 32\.0 MiB, over the 32 MiB a fixture file may be/,
    },
  ])('names the file for $name', ({ path, want }) => {
    const outcome = loadFixtureFile(path());
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.error.message).toMatch(want);
  });

  it('reads a file through a symlink to a regular file', () => {
    const path = join(dir, 'link.yaml');
    symlinkSync(file('target.yaml', 'orders: [{ id: 5, status: pending }]\n'), path);
    const outcome = loadFixtureFile(path);
    expect(outcome.ok && [...outcome.value.orders.orders.keys()]).toEqual([5n]);
  });
});
