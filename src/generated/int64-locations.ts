/**
 * GENERATED FILE, DO NOT EDIT.
 * Source: spec/openapi.yaml, by scripts/int64-locations.ts. Regenerate with `npm run generate`;
 * `npm test` fails while this file differs from a fresh generation.
 */

/** `true`: an int64; `items`: each element of an array; `properties`: members of an object. */
export type Int64Location = true | { items?: Int64Location; properties?: Record<string, Int64Location> };

/** Per operation (`METHOD /path`) and status, where its JSON body holds int64 values. */
export const INT64_LOCATIONS: Record<string, Record<string, Int64Location>> = {
  "GET /store/orders": {
    "200": {
      "items": {
        "properties": {
          "id": true,
          "petId": true
        }
      }
    }
  }
};
