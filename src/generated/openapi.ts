/**
 * GENERATED FILE, DO NOT EDIT.
 * Source: spec/openapi.yaml, by openapi-typescript. Regenerate with `npm run generate`;
 * `npm test` fails while this file differs from a fresh generation.
 *
 * int64 values (format int64) are typed as exact decimal strings, `${bigint}`: that is how the typed
 * client (petstore-contract-toolkit/client) hands them over, because a JavaScript number cannot hold every
 * int64 (D8, D17). Path parameters also take a bigint.
 */

export interface paths {
    "/store/orders": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List all orders
         * @description §4.1. Returns every order placed in the store. Filtering and pagination are not supported (§8);
         *     they are planned for v2 (§9). Cancelled orders are no longer listed (D2).
         */
        get: operations["listOrders"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/store/orders/{orderId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Cancel an order
         * @description §4.2. Cancels one order by its identifier. Only an order whose status is `pending` can be
         *     cancelled (§3); a shipped order cannot be reversed. The state changes each outcome causes are in
         *     the `x-petstore-order-states` extension at the root of this document (D1–D3).
         */
        delete: operations["cancelOrder"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/pets/{petId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get one pet (deprecated)
         * @deprecated
         * @description §1, §9. The single-pet read is deprecated and has a sunset date (its value is not shown in the
         *     interface spec; the mock takes it from its fixtures). Pet fields are not shown, so the Pet schema is
         *     open (D11). Responses carry `Deprecation` (RFC 9745) and `Sunset` (RFC 8594) headers.
         */
        get: operations["getPet"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /**
         * @description §2. An order for an animal. No field is required. The order's status (pending, shipped,
         *     cancelled) is not a field of the published record (D1); `complete` is `true` exactly for shipped
         *     orders in the mock, which a foreign server need not follow.
         */
        Order: {
            /**
             * Format: int64
             * @description §2. Unique order identifier, exact across the whole int64 range (D8).
             * @example 1
             * @example 9007199254740993
             */
            id?: `${bigint}`;
            /**
             * Format: int64
             * @description §2. Identifier of the animal in the order (D8).
             * @example 10
             */
            petId?: `${bigint}`;
            /**
             * @description §2. Number of units ordered.
             * @example 1
             */
            quantity?: number;
            /**
             * Format: date-time
             * @description §2. Expected or actual ship date (ISO 8601).
             * @example 2026-12-01T10:00:00Z
             */
            shipDate?: string;
            /**
             * @description §2. Whether the order has been fulfilled (D1).
             * @example false
             */
            complete?: boolean;
        };
        /** @description §2, §7. Every error response uses this object, with media type `application/json` (D15). */
        Error: {
            /**
             * @description §2. Machine-readable error code, a non-empty string. Its values are not shown in the interface
             *     spec; the mock uses the examples below, which are not an enum (D4).
             * @example unauthorized
             * @example order_not_found
             * @example order_already_shipped
             * @example not_found
             * @example method_not_allowed
             */
            code: string;
            /**
             * @description §2. Human-readable description of the error.
             * @example Missing or invalid API key.
             */
            message: string;
            /**
             * @description §2. The HTTP status code; always equal to the response's status (D5).
             * @example 401
             */
            status: number;
        };
        /** @description §2, D11. Pet record fields are not shown in the interface spec, so any object is a Pet. */
        Pet: {
            [key: string]: unknown;
        };
    };
    responses: {
        /** @description §4.1, §4.2, §5, §7. Missing or invalid API key. Error body. */
        Unauthorized: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description §4.2, §7. The order named by `orderId` cannot be found. Error body. */
        OrderNotFound: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /**
         * @description §4.2, §7. The order cannot be cancelled because it has already shipped; it stays shipped (§3). The
         *     interface spec does not show this body; we send an Error (D3), and the conformance suite treats a
         *     non-Error body on a foreign server as a warning.
         */
        OrderAlreadyShipped: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
    };
    parameters: never;
    requestBodies: never;
    headers: {
        /**
         * @description D11, RFC 9745. When the operation was deprecated, as `@` and a Unix time.
         * @example @1767225600
         */
        Deprecation: string;
        /**
         * @description D11, RFC 8594. When the operation stops being served, an HTTP date.
         * @example Wed, 30 Jun 2027 00:00:00 GMT
         */
        Sunset: string;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    listOrders: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description §4.1. A JSON array of Order objects, all orders in the store. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Order"][];
                };
            };
            401: components["responses"]["Unauthorized"];
        };
    };
    cancelOrder: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description §4.2. The identifier of the order to cancel: an integer within int64, kept exact above 2^53
                 *     (D8). A value that is not an int64 integer names no order (D9).
                 * @example 1
                 */
                orderId: `${bigint}` | bigint;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description §4.2, §3. Order cancelled successfully; the order moves from pending to cancelled. No body. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["OrderNotFound"];
            409: components["responses"]["OrderAlreadyShipped"];
        };
    };
    getPet: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description §1. The identifier of the pet, an int64 integer (D8, D11).
                 * @example 10
                 */
                petId: `${bigint}` | bigint;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description §1, §9, D11. The pet. Its fields are not shown in the interface spec. */
            200: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Pet"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description §7, D4, D11. No pet has this identifier. Error body. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
}
