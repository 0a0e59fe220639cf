/**
 * GENERATED FILE, DO NOT EDIT.
 * Source: fixtures/fixtures.schema.json, copied as data. Regenerate with `npm run generate`;
 * `npm test` fails while this file differs from a fresh generation.
 */

/** The JSON Schema of a fixture file. */
export const FIXTURES_SCHEMA: Readonly<Record<string, unknown>> = {
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "https://petstore.contract/fixtures.schema.json",
  "title": "Pet Store mock fixtures",
  "description": "The state the mock starts from (docs/mock.md). Order fields other than `status` are also checked against the document's Order schema, exactly (ids up to int64).",
  "type": "object",
  "additionalProperties": false,
  "properties": {
    "$schema": {
      "type": "string"
    },
    "description": {
      "description": "Where the fixtures came from, in one line, shown by the mock's banner and GET /__mock/state: e.g. the line `petstore proxy --record` writes.",
      "type": "string",
      "maxLength": 500
    },
    "apiKeys": {
      "description": "Bearer tokens the mock accepts, unless --api-key or PETSTORE_API_KEY is given. RFC 6750 token characters.",
      "type": "array",
      "items": {
        "type": "string",
        "minLength": 1,
        "maxLength": 512,
        "pattern": "^[A-Za-z0-9._~+/-]+=*$"
      }
    },
    "petsDeprecated": {
      "description": "When GET /pets/{petId} was deprecated: sent as the Deprecation header (RFC 9745). Default 2026-01-01T00:00:00Z.",
      "type": "string",
      "format": "date-time"
    },
    "petsSunset": {
      "description": "When GET /pets/{petId} stops being served: sent as the Sunset header (RFC 8594). Default 2027-06-30T00:00:00Z.",
      "type": "string",
      "format": "date-time"
    },
    "pets": {
      "description": "Pets served by GET /v1/pets/{petId}. The Pet schema is open (D11); only `id` is required.",
      "type": "array",
      "items": {
        "type": "object",
        "required": [
          "id"
        ],
        "properties": {
          "id": {
            "type": "integer"
          }
        }
      }
    },
    "orders": {
      "description": "Orders with their internal state (D1): `status` (or `state`, the control object's name for it), else `complete` as the API publishes it (true reads as shipped, false as pending), so listed orders seed the mock unchanged.",
      "type": "array",
      "items": {
        "type": "object",
        "required": [
          "id"
        ],
        "additionalProperties": false,
        "properties": {
          "id": {
            "type": "integer"
          },
          "petId": {
            "type": "integer"
          },
          "quantity": {
            "type": "integer"
          },
          "shipDate": {
            "type": "string",
            "format": "date-time"
          },
          "status": {
            "enum": [
              "pending",
              "shipped",
              "cancelled"
            ]
          },
          "state": {
            "enum": [
              "pending",
              "shipped",
              "cancelled"
            ]
          },
          "complete": {
            "type": "boolean"
          }
        }
      }
    }
  }
};
