/**
 * Checked fixtures as plain data that `postMessage` can copy between threads, and back: the classes
 * (`OrderBase`) do not survive a structured clone, their contents do.
 */
import type { Contract } from '../contract/index.js';
import type { FixtureSet, StoredPet } from './fixtures.js';
import { orderStatesOf } from './order-state.js';
import { OrderBase, type StoredOrder } from './order-store.js';

/** A {@link FixtureSet} without its classes. */
export interface TransferableFixtures {
  source: string;
  description?: string;
  apiKeys: readonly string[];
  orders: StoredOrder[];
  pets: StoredPet[];
  deprecationHeader: string;
  sunsetHeader: string;
}

/** @example toTransferable(fixtures).orders.length // fixtures.orders.orders.size */
export function toTransferable(fixtures: FixtureSet): TransferableFixtures {
  return {
    source: fixtures.source,
    ...(fixtures.description === undefined ? {} : { description: fixtures.description }),
    apiKeys: fixtures.apiKeys,
    orders: [...fixtures.orders.orders.values()],
    pets: [...fixtures.pets.values()],
    deprecationHeader: fixtures.deprecationHeader,
    sunsetHeader: fixtures.sunsetHeader,
  };
}

/** @example fromTransferable(toTransferable(fixtures), contract).orders.orders.size // fixtures.orders.orders.size */
export function fromTransferable(data: TransferableFixtures, contract: Contract): FixtureSet {
  return {
    source: data.source,
    ...(data.description === undefined ? {} : { description: data.description }),
    apiKeys: data.apiKeys,
    orders: new OrderBase(new Map(data.orders.map((order) => [order.id, order])), orderStatesOf(contract)),
    pets: new Map(data.pets.map((pet) => [pet.id, pet])),
    deprecationHeader: data.deprecationHeader,
    sunsetHeader: data.sunsetHeader,
  };
}
