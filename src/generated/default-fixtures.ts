/**
 * GENERATED FILE, DO NOT EDIT.
 * Source: fixtures/default.yaml, by scripts/default-fixtures.ts. Regenerate with `npm run generate`;
 * `npm test` fails while this file differs from a fresh generation.
 */

import type { DefaultFixtures } from '../fixtures/index.js';

/** The mock's default fixtures as data: ids are exact decimal strings, as the typed client hands them over. */
export const DEFAULT_FIXTURES: DefaultFixtures = {
  "apiKeys": [
    "petstore-dev-key"
  ],
  "petsDeprecated": "2026-01-01T00:00:00Z",
  "petsSunset": "2027-06-30T00:00:00Z",
  "pets": [
    {
      "id": "10",
      "name": "Rex",
      "species": "dog"
    },
    {
      "id": "11",
      "name": "Tom",
      "species": "cat"
    },
    {
      "id": "12",
      "name": "Bubbles",
      "species": "fish"
    },
    {
      "id": "13",
      "name": "Polly",
      "species": "parrot"
    },
    {
      "id": "14",
      "name": "Hopper",
      "species": "rabbit"
    }
  ],
  "orders": [
    {
      "id": "1",
      "petId": "10",
      "quantity": 1,
      "shipDate": "2026-12-01T10:00:00Z",
      "status": "pending"
    },
    {
      "id": "3",
      "petId": "12",
      "quantity": 4,
      "shipDate": "2026-12-03T14:15:00Z",
      "status": "pending"
    },
    {
      "id": "5",
      "petId": "14",
      "quantity": 2,
      "shipDate": "2026-12-08T08:00:00Z",
      "status": "pending"
    },
    {
      "id": "7",
      "petId": "11",
      "quantity": 1,
      "shipDate": "2026-12-15T16:45:00Z",
      "status": "pending"
    },
    {
      "id": "9",
      "petId": "13",
      "quantity": 1,
      "shipDate": "2027-01-05T11:30:00Z",
      "status": "pending"
    },
    {
      "id": "11",
      "petId": "10",
      "quantity": 2,
      "shipDate": "2027-01-12T09:00:00Z",
      "status": "pending"
    },
    {
      "id": "2",
      "petId": "11",
      "quantity": 3,
      "shipDate": "2026-11-02T09:30:00Z",
      "status": "shipped"
    },
    {
      "id": "4",
      "petId": "13",
      "quantity": 1,
      "shipDate": "2026-11-05T13:00:00Z",
      "status": "shipped"
    },
    {
      "id": "6",
      "petId": "10",
      "quantity": 1,
      "shipDate": "2026-11-10T10:20:00Z",
      "status": "shipped"
    },
    {
      "id": "8",
      "petId": "12",
      "quantity": 6,
      "shipDate": "2026-11-14T15:05:00Z",
      "status": "shipped"
    },
    {
      "id": "10",
      "petId": "14",
      "quantity": 2,
      "shipDate": "2026-11-18T07:40:00Z",
      "status": "shipped"
    },
    {
      "id": "9007199254740993",
      "petId": "11",
      "quantity": 1,
      "shipDate": "2026-12-20T12:00:00Z",
      "status": "pending"
    },
    {
      "id": "9223372036854775807",
      "petId": "12",
      "quantity": 2,
      "shipDate": "2026-10-30T17:00:00Z",
      "status": "shipped"
    },
    {
      "id": "12",
      "petId": "13",
      "quantity": 1,
      "shipDate": "2026-12-10T10:00:00Z",
      "status": "cancelled"
    }
  ]
};
