import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadFixtureFile, loadFixtures } from './fixture-files.js';
import type { FixtureData } from './fixtures.js';

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
      want: /is not exact as a number/,
    },
    { name: 'a missing id', given: { orders: [{ status: 'pending' }] }, want: /orders\[0\]: missing "id"/ },
    {
      name: 'a complete field, which is derived',
      given: { orders: [{ id: 1, status: 'pending', complete: true }] },
      want: /unknown field "complete" \(`complete` is derived/,
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
  ])('rejects $name', ({ given, want }) => {
    const outcome = loadFixtures(given as FixtureData);
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) {
      expect(outcome.error.problems.join('\n')).toMatch(want);
      expect(outcome.error.message).toMatch(/^<fixture data>: /);
    }
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

  it('names the problem in a broken JSON file', () => {
    const outcome = loadFixtureFile(file('broken.json', '{"orders": [}'));
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.error.message).toMatch(/broken\.json: is not valid JSON/);
  });

  it('rejects a duplicated key in JSON too', () => {
    expect(
      loadFixtureFile(file('dup.json', '{"orders": [], "orders": [{"id": 1, "status": "pending"}]}')).ok,
    ).toBe(false);
  });

  it('reads JSON in a .yaml file through the JSON parser, exactly', () => {
    const outcome = loadFixtureFile(
      file('json.yaml', '{"orders":[{"id":9007199254740993,"status":"shipped"}]}'),
    );
    expect(outcome.ok && outcome.value.orders.orders.has(9007199254740993n)).toBe(true);
  });

  it.each([
    { name: 'a missing file', path: () => join(dir, 'nope.yaml'), want: /nope\.yaml: no such file/ },
    { name: 'a folder', path: () => dir, want: /is a folder/ },
    {
      name: 'broken YAML',
      path: () => file('broken.yaml', 'orders: [ {id: 1'),
      want: /is not valid YAML or JSON/,
    },
    {
      name: 'a duplicated key',
      path: () => file('dup.yaml', 'orders: []\norders: []\n'),
      want: /is not valid YAML or JSON/,
    },
    { name: 'a list at the top', path: () => file('list.yaml', '- 1\n'), want: /must hold a mapping/ },
  ])('names the file for $name', ({ path, want }) => {
    const outcome = loadFixtureFile(path());
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.error.message).toMatch(want);
  });

  it('accepts an empty file as no orders and no pets', () => {
    const outcome = loadFixtureFile(file('empty.yaml', ''));
    expect(outcome.ok && outcome.value.orders.orders.size).toBe(0);
  });
});
