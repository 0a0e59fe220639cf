import { describe, expectTypeOf, it } from 'vitest';
import type { ApiError, Int64String, Order, PetstoreClient } from './index.js';

declare const client: PetstoreClient;
type ListResult = Awaited<ReturnType<typeof listOrders>>;
type CancelResult = Awaited<ReturnType<typeof cancelOrder>>;
const listOrders = () => client.GET('/store/orders');
const cancelOrder = (orderId: Int64String | bigint) =>
  client.DELETE('/store/orders/{orderId}', { params: { path: { orderId } } });

describe('the typed client (D17)', () => {
  it('lists orders whose int64 fields are exact decimal strings', () => {
    expectTypeOf<ListResult['data']>().toEqualTypeOf<Order[] | undefined>();
    expectTypeOf<Order['id']>().toEqualTypeOf<`${bigint}` | undefined>();
    expectTypeOf<Order['petId']>().toEqualTypeOf<`${bigint}` | undefined>();
    expectTypeOf<Order['quantity']>().toEqualTypeOf<number | undefined>();
  });

  it('gives the typed Error for 401 on the list, and for 401, 404 and 409 on a cancel', () => {
    expectTypeOf<ListResult['error']>().toEqualTypeOf<ApiError | undefined>();
    expectTypeOf<CancelResult['error']>().toEqualTypeOf<ApiError | undefined>();
    expectTypeOf<ApiError>().toEqualTypeOf<{ code: string; message: string; status: number }>();
  });

  it('has no data for a cancel (204)', () => {
    expectTypeOf<CancelResult['data']>().toEqualTypeOf<never | undefined>();
  });

  it('takes a listed id, a decimal literal or a bigint as orderId, and refuses a number', () => {
    const listed: Order = {};
    expectTypeOf(client.DELETE)
      .parameter(1)
      .toMatchTypeOf<{ params: { path: { orderId: `${bigint}` | bigint } } }>();
    void client.DELETE('/store/orders/{orderId}', { params: { path: { orderId: listed.id ?? '1' } } });
    void client.DELETE('/store/orders/{orderId}', { params: { path: { orderId: '9007199254740993' } } });
    void client.DELETE('/store/orders/{orderId}', { params: { path: { orderId: 9007199254740993n } } });
    // @ts-expect-error a number cannot hold every int64
    void client.DELETE('/store/orders/{orderId}', { params: { path: { orderId: 1 } } });
    // @ts-expect-error an id is an integer's digits, not any string
    void client.DELETE('/store/orders/{orderId}', { params: { path: { orderId: 'abc' } } });
  });

  it('keeps an id that survives JSON.stringify: a string, no bigint', () => {
    expectTypeOf<Int64String>().toMatchTypeOf<string>();
  });
});
