/**
 * The page's API client: plain `fetch`, with bodies parsed losslessly (`parseExactJson`) so an order id
 * above 2^53 keeps every digit on its way in and out (D8). Outcomes are values: the data, or the Error's
 * message and status.
 */
import { type ExactJson, parseExactJson } from '../../src/contract/lossless-json.js';
import type { Result } from '../../src/result.js';

export interface ListedOrder {
  /** The id exactly as the server wrote it. */
  id: string;
  petId: string;
  quantity: string;
  shipDate: string;
  complete: boolean;
}

export interface ApiFailure {
  status: number;
  message: string;
}

function fieldText(value: ExactJson | undefined): string {
  return value === undefined || value === null ? '' : String(value);
}

async function failure(response: Response): Promise<ApiFailure> {
  const parsed = parseExactJson(await response.text());
  const body = parsed.ok && typeof parsed.value === 'object' && parsed.value !== null ? parsed.value : {};
  const message = 'message' in body && typeof body.message === 'string' ? body.message : response.statusText;
  return { status: response.status, message };
}

export function createOrdersApi(baseUrl: string, apiKey: () => string | undefined) {
  const headers = (): Record<string, string> => {
    const key = apiKey();
    return key === undefined ? {} : { authorization: `Bearer ${key}` };
  };
  return {
    async listOrders(): Promise<Result<ListedOrder[], ApiFailure>> {
      const response = await fetch(`${baseUrl}/store/orders`, { headers: headers() });
      if (!response.ok) return { ok: false, error: await failure(response) };
      const parsed = parseExactJson(await response.text());
      if (!parsed.ok || !Array.isArray(parsed.value)) {
        return {
          ok: false,
          error: { status: response.status, message: 'The order list is not a JSON array.' },
        };
      }
      const orders = parsed.value.map((item) => {
        const order = (
          typeof item === 'object' && item !== null && !Array.isArray(item) ? item : {}
        ) as Record<string, ExactJson>;
        return {
          id: fieldText(order.id),
          petId: fieldText(order.petId),
          quantity: fieldText(order.quantity),
          shipDate: fieldText(order.shipDate),
          complete: order.complete === true,
        };
      });
      return { ok: true, value: orders };
    },
    async cancelOrder(id: string): Promise<Result<undefined, ApiFailure>> {
      const response = await fetch(`${baseUrl}/store/orders/${id}`, { method: 'DELETE', headers: headers() });
      return response.status === 204
        ? { ok: true, value: undefined }
        : { ok: false, error: await failure(response) };
    },
  };
}
