/**
 * The page's API calls, through the toolkit's typed client (`createPetstoreClient`): int64 ids come back as
 * exact decimal strings (D17), so 9007199254740993 keeps every digit on its way in and out. Outcomes are
 * values: the data, or the Error's status and message.
 */
import { createPetstoreClient, type Int64String, type Order } from '../../src/client/index.js';
import type { Result } from '../../src/result.js';

export interface ApiFailure {
  status: number;
  message: string;
}

function failure(response: Response, error: unknown): ApiFailure {
  const message =
    typeof error === 'object' && error !== null && 'message' in error && typeof error.message === 'string'
      ? error.message
      : response.statusText;
  return { status: response.status, message };
}

/**
 * The calls the page makes. `signedOut()` says whether to send them without the key, as a signed-out
 * user's page would.
 *
 * @example const api = createOrdersApi('/v1', 'petstore-example-key', () => false); await api.listOrders()
 */
export function createOrdersApi(baseUrl: string, apiKey: string, signedOut: () => boolean) {
  const withKey = createPetstoreClient({ baseUrl, apiKey });
  const withoutKey = createPetstoreClient({
    baseUrl,
    apiKey,
    fetch: (request) => {
      const bare = new Request(request);
      bare.headers.delete('authorization');
      return fetch(bare);
    },
  });
  const client = () => (signedOut() ? withoutKey : withKey);
  return {
    async listOrders(): Promise<Result<Order[], ApiFailure>> {
      const { data, error, response } = await client().GET('/store/orders');
      return data ? { ok: true, value: data } : { ok: false, error: failure(response, error) };
    },
    async cancelOrder(orderId: Int64String): Promise<Result<undefined, ApiFailure>> {
      const { error, response } = await client().DELETE('/store/orders/{orderId}', {
        params: { path: { orderId } },
      });
      return response.status === 204
        ? { ok: true, value: undefined }
        : { ok: false, error: failure(response, error) };
    },
  };
}
