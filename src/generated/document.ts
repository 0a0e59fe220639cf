/**
 * GENERATED FILE, DO NOT EDIT.
 * Source: spec/openapi.yaml, copied as data. Regenerate with `npm run generate`;
 * `npm test` fails while this file differs from a fresh generation.
 */

/** The OpenAPI document as authored, parsed. */
export const DOCUMENT: Readonly<Record<string, unknown>> = {
  "openapi": "3.1.0",
  "info": {
    "title": "Pet Store Orders API",
    "version": "1.0.0",
    "summary": "List and cancel pet store orders.",
    "description": "The published interface of the pet store service (interface spec §1): a pet store over HTTP with JSON\nbodies, where the store lists and cancels orders.\n\nThis document is the single source of truth for the contract-first toolkit: the TypeScript types,\nthe stateful mock server and the conformance suite are all derived from it. Where the interface spec\nsays \"not shown\", the product decisions D1–D22 fill the gap; each decision is visible here as plain\nOpenAPI where possible and otherwise as an `x-petstore-*` extension, listed in `docs/decisions.md`.\n\nEvery operation requires bearer authentication (§5). Every error body is the `Error` object (§7).\n"
  },
  "servers": [
    {
      "url": "{base_url}",
      "description": "Production (§1, D12). The interface spec names this address only as the placeholder `{base_url}`;\nit already ends in the version segment `/v1`. Substitute the real address.\n",
      "variables": {
        "base_url": {
          "default": "https://production.petstore.invalid/v1",
          "description": "The production base address, ending in `/v1` (placeholder, D12)."
        }
      }
    },
    {
      "url": "{staging_base_url}",
      "description": "Staging (§1, D12). Published only as the placeholder `{staging_base_url}`; it already ends in `/v1`.\n",
      "variables": {
        "staging_base_url": {
          "default": "https://staging.petstore.invalid/v1",
          "description": "The staging base address, ending in `/v1` (placeholder, D12)."
        }
      }
    },
    {
      "url": "http://127.0.0.1:4010/v1",
      "description": "The local mock server started by `npm start` (D12)."
    }
  ],
  "security": [
    {
      "bearerAuth": []
    }
  ],
  "tags": [
    {
      "name": "orders",
      "description": "Orders placed in the store (§2, §4.1, §4.2)."
    },
    {
      "name": "pets",
      "description": "Pets in the store; only the deprecated single-pet read is published (§1, §4.3, §9)."
    }
  ],
  "paths": {
    "/store/orders": {
      "get": {
        "operationId": "listOrders",
        "summary": "List all orders",
        "description": "§4.1. Returns every order placed in the store. Filtering and pagination are not supported (§8);\nthey are planned for v2 (§9). Cancelled orders are no longer listed (D2).\n",
        "tags": [
          "orders"
        ],
        "security": [
          {
            "bearerAuth": []
          }
        ],
        "responses": {
          "200": {
            "description": "§4.1. A JSON array of Order objects, all orders in the store.",
            "content": {
              "application/json": {
                "schema": {
                  "type": "array",
                  "items": {
                    "$ref": "#/components/schemas/Order"
                  }
                },
                "examples": {
                  "orders": {
                    "summary": "One pending and one shipped order",
                    "value": [
                      {
                        "id": 1,
                        "petId": 10,
                        "quantity": 1,
                        "shipDate": "2026-12-01T10:00:00Z",
                        "complete": false
                      },
                      {
                        "id": 2,
                        "petId": 11,
                        "quantity": 3,
                        "shipDate": "2026-11-02T09:30:00Z",
                        "complete": true
                      }
                    ]
                  }
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          }
        }
      }
    },
    "/store/orders/{orderId}": {
      "delete": {
        "operationId": "cancelOrder",
        "summary": "Cancel an order",
        "description": "§4.2. Cancels one order by its identifier. Only an order whose status is `pending` can be\ncancelled (§3); a shipped order cannot be reversed. The state changes each outcome causes are in\nthe `x-petstore-order-states` extension at the root of this document (D1–D3).\n",
        "tags": [
          "orders"
        ],
        "security": [
          {
            "bearerAuth": []
          }
        ],
        "parameters": [
          {
            "name": "orderId",
            "in": "path",
            "required": true,
            "description": "§4.2. The identifier of the order to cancel: an integer within int64, kept exact above 2^53\n(D8). A value that is not an int64 integer names no order (D9).\n",
            "schema": {
              "type": "integer",
              "format": "int64"
            },
            "example": 1,
            "x-petstore-malformed": {
              "descriptive": true,
              "decision": "D9",
              "mock": {
                "status": 404,
                "code": "order_not_found"
              },
              "conformance": "any 4xx passes; 2xx or 5xx fails; a non-Error body is a warning"
            }
          }
        ],
        "responses": {
          "204": {
            "description": "§4.2, §3. Order cancelled successfully; the order moves from pending to cancelled. No body."
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "404": {
            "$ref": "#/components/responses/OrderNotFound"
          },
          "409": {
            "$ref": "#/components/responses/OrderAlreadyShipped"
          }
        }
      }
    },
    "/pets/{petId}": {
      "get": {
        "operationId": "getPet",
        "summary": "Get one pet (deprecated)",
        "description": "§1, §9. The single-pet read is deprecated and has a sunset date (its value is not shown in the\ninterface spec; the mock takes it from its fixtures). Pet fields are not shown, so the Pet schema is\nopen (D11). Responses carry `Deprecation` (RFC 9745) and `Sunset` (RFC 8594) headers.\n",
        "deprecated": true,
        "tags": [
          "pets"
        ],
        "security": [
          {
            "bearerAuth": []
          }
        ],
        "parameters": [
          {
            "name": "petId",
            "in": "path",
            "required": true,
            "description": "§1. The identifier of the pet, an int64 integer (D8, D11).",
            "schema": {
              "type": "integer",
              "format": "int64"
            },
            "example": 10
          }
        ],
        "responses": {
          "200": {
            "description": "§1, §9, D11. The pet. Its fields are not shown in the interface spec.",
            "headers": {
              "Deprecation": {
                "$ref": "#/components/headers/Deprecation"
              },
              "Sunset": {
                "$ref": "#/components/headers/Sunset"
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Pet"
                },
                "examples": {
                  "pet": {
                    "summary": "A pet from the mock's default fixtures",
                    "value": {
                      "id": 10,
                      "name": "Rex"
                    }
                  }
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "404": {
            "description": "§7, D4, D11. No pet has this identifier. Error body.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                },
                "examples": {
                  "petNotFound": {
                    "summary": "Unknown pet",
                    "value": {
                      "code": "not_found",
                      "message": "No pet has id 404.",
                      "status": 404
                    }
                  }
                }
              }
            }
          }
        }
      }
    }
  },
  "components": {
    "securitySchemes": {
      "bearerAuth": {
        "type": "http",
        "scheme": "bearer",
        "description": "§5. The API key is the bearer token: `Authorization: Bearer <API_KEY>`. A missing or invalid key is\n401 with an Error body on every operation, whatever the path parameters (D6: authentication runs\nbefore an order is looked up). The scheme name is case-insensitive (RFC 9110 §11.1); any other\nscheme, an empty token or a bare key is 401 (D7).\n",
        "x-petstore-auth": {
          "descriptive": true,
          "decisions": [
            "D6",
            "D7"
          ],
          "precedence": "authentication runs before routing to an order",
          "schemeCaseInsensitive": true,
          "rejected": [
            "missing header",
            "wrong key",
            "other scheme",
            "empty token",
            "bare key"
          ]
        }
      }
    },
    "headers": {
      "Deprecation": {
        "description": "D11, RFC 9745. When the operation was deprecated, as `@` and a Unix time.",
        "schema": {
          "type": "string",
          "pattern": "^@-?[0-9]+$"
        },
        "example": "@1767225600"
      },
      "Sunset": {
        "description": "D11, RFC 8594. When the operation stops being served, an HTTP date.",
        "schema": {
          "type": "string",
          "pattern": "^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), [0-3][0-9] (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [0-9]{4} [0-2][0-9]:[0-5][0-9]:[0-6][0-9] GMT$"
        },
        "example": "Wed, 30 Jun 2027 00:00:00 GMT"
      }
    },
    "schemas": {
      "Order": {
        "type": "object",
        "description": "§2. An order for an animal. No field is required. The order's status (pending, shipped,\ncancelled) is not a field of the published record (D1); `complete` is `true` exactly for shipped\norders in the mock, which a foreign server need not follow.\n",
        "properties": {
          "id": {
            "type": "integer",
            "format": "int64",
            "description": "§2. Unique order identifier, exact across the whole int64 range (D8).",
            "examples": [
              1,
              "9007199254740993"
            ]
          },
          "petId": {
            "type": "integer",
            "format": "int64",
            "description": "§2. Identifier of the animal in the order (D8).",
            "examples": [
              10
            ]
          },
          "quantity": {
            "type": "integer",
            "description": "§2. Number of units ordered.",
            "examples": [
              1
            ]
          },
          "shipDate": {
            "type": "string",
            "format": "date-time",
            "description": "§2. Expected or actual ship date (ISO 8601).",
            "examples": [
              "2026-12-01T10:00:00Z"
            ]
          },
          "complete": {
            "type": "boolean",
            "description": "§2. Whether the order has been fulfilled (D1).",
            "examples": [
              false
            ]
          }
        }
      },
      "Error": {
        "type": "object",
        "description": "§2, §7. Every error response uses this object, with media type `application/json` (D15).\n",
        "required": [
          "code",
          "message",
          "status"
        ],
        "properties": {
          "code": {
            "type": "string",
            "minLength": 1,
            "description": "§2. Machine-readable error code, a non-empty string. Its values are not shown in the interface\nspec; the mock uses the examples below, which are not an enum (D4).\n",
            "examples": [
              "unauthorized",
              "order_not_found",
              "order_already_shipped",
              "not_found",
              "method_not_allowed"
            ]
          },
          "message": {
            "type": "string",
            "description": "§2. Human-readable description of the error.",
            "examples": [
              "Missing or invalid API key."
            ]
          },
          "status": {
            "type": "integer",
            "minimum": 100,
            "maximum": 599,
            "description": "§2. The HTTP status code; always equal to the response's status (D5).",
            "examples": [
              401
            ]
          }
        }
      },
      "Pet": {
        "type": "object",
        "description": "§2, D11. Pet record fields are not shown in the interface spec, so any object is a Pet.",
        "additionalProperties": true
      }
    },
    "responses": {
      "Unauthorized": {
        "description": "§4.1, §4.2, §5, §7. Missing or invalid API key. Error body.",
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            },
            "examples": {
              "unauthorized": {
                "summary": "Missing or invalid API key",
                "value": {
                  "code": "unauthorized",
                  "message": "Missing or invalid API key. Send the header `Authorization: Bearer <API_KEY>`.",
                  "status": 401
                }
              }
            }
          }
        }
      },
      "OrderNotFound": {
        "description": "§4.2, §7. The order named by `orderId` cannot be found. Error body.",
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            },
            "examples": {
              "orderNotFound": {
                "summary": "No order has this id",
                "value": {
                  "code": "order_not_found",
                  "message": "No order has id 404.",
                  "status": 404
                }
              }
            }
          }
        }
      },
      "OrderAlreadyShipped": {
        "description": "§4.2, §7. The order cannot be cancelled because it has already shipped; it stays shipped (§3). The\ninterface spec does not show this body; we send an Error (D3), and the conformance suite treats a\nnon-Error body on a foreign server as a warning.\n",
        "x-petstore-conformance": {
          "decision": "D3",
          "status": "failure",
          "body": "warning"
        },
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            },
            "examples": {
              "orderAlreadyShipped": {
                "summary": "The order has shipped",
                "value": {
                  "code": "order_already_shipped",
                  "message": "Order 2 has already shipped and cannot be cancelled.",
                  "status": 409
                }
              }
            }
          }
        }
      }
    }
  },
  "x-petstore-order-states": {
    "description": "§3, D1–D3. The order state machine. The published Order record carries no status (D1); the mock keeps\nthe state internally. `listed` says whether an order in that state appears in `GET /store/orders`;\n`complete` is the value the mock publishes for it.\n",
    "states": {
      "pending": {
        "listed": true,
        "complete": false,
        "source": "§3"
      },
      "shipped": {
        "listed": true,
        "complete": true,
        "source": "§3"
      },
      "cancelled": {
        "listed": false,
        "source": "§3, D2"
      }
    },
    "transitions": [
      {
        "from": "pending",
        "operation": "cancelOrder",
        "to": "cancelled",
        "status": 204,
        "source": "§3, §4.2"
      },
      {
        "from": "shipped",
        "operation": "cancelOrder",
        "to": "shipped",
        "status": 409,
        "code": "order_already_shipped",
        "source": "§3, §4.2, D3"
      },
      {
        "from": "cancelled",
        "operation": "cancelOrder",
        "to": "cancelled",
        "status": 404,
        "code": "order_not_found",
        "source": "D2"
      }
    ]
  },
  "x-petstore-unknown-routes": {
    "description": "D10. What the mock answers outside the documented operations; never judged as a failure.",
    "descriptive": true,
    "unknownPath": {
      "status": 404,
      "code": "not_found"
    },
    "unsupportedMethod": {
      "status": 405,
      "code": "method_not_allowed",
      "headers": [
        "Allow"
      ]
    }
  },
  "x-petstore-cors": {
    "description": "D14. CORS is on by default for local front-end development, the way a browser app uses it, for local\npages (`localhost`, `127.0.0.0/8`, `[::1]`, any port) and the origins named with `--cors-origin` (`*`\nfor any): a preflight OPTIONS needs no key and reflects the method and headers the page asks for; every\nanswer reflects the request's `Origin` with `Access-Control-Allow-Credentials: true` and `Vary: Origin`\n(a wildcard cannot carry credentials), or `*` when the request has no `Origin`. Any other page gets no\nCORS header and the `/__mock/` control endpoints refuse it (403 `origin_not_allowed`): the default key\nis public, so any web site could otherwise read and steer a developer's mock. The mock reads\n`exposeHeaders` from here: the response headers a page's script may read.\n",
    "exposeHeaders": [
      "Allow",
      "Deprecation",
      "Sunset",
      "Preference-Applied",
      "WWW-Authenticate",
      "X-Mock-Fault"
    ]
  },
  "x-petstore-faults": {
    "description": "D18. Simulated faults, so that a front-end can show its error states: opt-in only, per session\n(`X-Mock-Session`), never on by default. `Prefer: code=NNN` with a 5xx status that the operation does\nnot document answers that status with an Error whose `code` is `code` below; the control endpoint\n`/__mock/faults` makes the next requests to an operation (or to all) fail with a chosen status, drop\nthe connection, or wait. Every answer a fault shaped carries the `header` below. Not part of the\npublished interface; the conformance suite never sends these requests. The mock reads `code`,\n`header` and `preferStatus` from here.\n",
    "decision": "D18",
    "code": "simulated_fault",
    "header": "X-Mock-Fault",
    "preferStatus": {
      "minimum": 500,
      "maximum": 599
    }
  }
};
