import { describe, expectTypeOf, it } from 'vitest';
import type { operations } from '../generated/openapi.js';
import type { ApiError, Order } from './model.js';

type ListOrdersOperation = operations['listOrders'];
type CancelOrderOperation = operations['cancelOrder'];

describe('generated types', () => {
  it('Order has five optional fields (§2), its int64s as exact decimal strings (D17)', () => {
    expectTypeOf<Order>().toEqualTypeOf<{
      id?: `${bigint}`;
      petId?: `${bigint}`;
      quantity?: number;
      shipDate?: string;
      complete?: boolean;
    }>();
  });

  it('Error has three required fields (§2)', () => {
    expectTypeOf<ApiError>().toEqualTypeOf<{ code: string; message: string; status: number }>();
  });

  it('listOrders answers 200 with Order[] and 401 with Error (§4.1)', () => {
    type Responses = ListOrdersOperation['responses'];
    expectTypeOf<keyof Responses>().toEqualTypeOf<200 | 401>();
    expectTypeOf<Responses[200]['content']['application/json']>().toEqualTypeOf<Order[]>();
    expectTypeOf<Responses[401]['content']['application/json']>().toEqualTypeOf<ApiError>();
    expectTypeOf<ListOrdersOperation['parameters']['path']>().toEqualTypeOf<never | undefined>();
  });

  it('cancelOrder takes an orderId and answers 204, 401, 404, 409 (§4.2)', () => {
    type Responses = CancelOrderOperation['responses'];
    expectTypeOf<keyof Responses>().toEqualTypeOf<204 | 401 | 404 | 409>();
    expectTypeOf<CancelOrderOperation['parameters']['path']>().toEqualTypeOf<{
      orderId: `${bigint}` | bigint;
    }>();
    expectTypeOf<Responses[204]['content']>().toEqualTypeOf<never | undefined>();
    expectTypeOf<Responses[409]['content']['application/json']>().toEqualTypeOf<ApiError>();
  });
});
