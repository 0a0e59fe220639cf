/**
 * GENERATED FILE, DO NOT EDIT.
 * Source: spec/openapi.yaml, copied as data. Regenerate with `npm run generate`;
 * `npm test` fails while this file differs from a fresh generation.
 */

/** The OpenAPI document as the toolkit runs it: parsed, without the prose no code reads (scripts/without-prose.ts). */
export const DOCUMENT: Readonly<Record<string, unknown>> = {
  "openapi": "3.1.0",
  "info": {
    "title": "Pet Store Orders API",
    "version": "1.0.0"
  },
  "servers": [
    {
      "url": "{base_url}",
      "variables": {
        "base_url": {
          "default": "https://production.petstore.invalid/v1"
        }
      }
    },
    {
      "url": "{staging_base_url}",
      "variables": {
        "staging_base_url": {
          "default": "https://staging.petstore.invalid/v1"
        }
      }
    },
    {
      "url": "http://127.0.0.1:4010/v1"
    }
  ],
  "security": [
    {
      "bearerAuth": []
    }
  ],
  "paths": {
    "/store/orders": {
      "get": {
        "operationId": "listOrders",
        "security": [
          {
            "bearerAuth": []
          }
        ],
        "responses": {
          "200": {
            "description": "",
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
            "schema": {
              "type": "integer",
              "format": "int64"
            },
            "example": 1
          }
        ],
        "responses": {
          "204": {
            "description": ""
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
        "deprecated": true,
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
            "schema": {
              "type": "integer",
              "format": "int64"
            },
            "example": 10
          }
        ],
        "responses": {
          "200": {
            "description": "",
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
            "description": "",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                },
                "examples": {
                  "petNotFound": {
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
        "scheme": "bearer"
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
        "properties": {
          "id": {
            "type": "integer",
            "format": "int64"
          },
          "petId": {
            "type": "integer",
            "format": "int64"
          },
          "quantity": {
            "type": "integer"
          },
          "shipDate": {
            "type": "string",
            "format": "date-time"
          },
          "complete": {
            "type": "boolean"
          }
        }
      },
      "Error": {
        "type": "object",
        "required": [
          "code",
          "message",
          "status"
        ],
        "properties": {
          "code": {
            "type": "string",
            "minLength": 1
          },
          "message": {
            "type": "string"
          },
          "status": {
            "type": "integer",
            "minimum": 100,
            "maximum": 599
          }
        }
      },
      "Pet": {
        "type": "object",
        "additionalProperties": true
      }
    },
    "responses": {
      "Unauthorized": {
        "description": "",
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            },
            "examples": {
              "unauthorized": {
                "value": {
                  "code": "unauthorized",
                  "message": "Missing or invalid API key. Send the header \"Authorization: Bearer <API_KEY>\".",
                  "status": 401
                }
              }
            }
          }
        }
      },
      "OrderNotFound": {
        "description": "",
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            },
            "examples": {
              "orderNotFound": {
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
        "description": "",
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
  "x-petstore-cors": {
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
    "decision": "D18",
    "code": "simulated_fault",
    "header": "X-Mock-Fault",
    "preferStatus": {
      "minimum": 500,
      "maximum": 599
    }
  }
};
