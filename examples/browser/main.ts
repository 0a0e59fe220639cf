/**
 * A small page without a framework: lists the store's orders and cancels one, against the Pet Store mock
 * running in the page under MSW. What it shows comes from the API's answers only.
 */
import type { Int64String, Order } from '../../src/client/index.js';
import { mountInspector } from '../../src/msw/inspector.js';
import { createOrdersApi } from './api.js';
import { EXAMPLE_API_KEY } from './fixtures.js';
import { startMocks } from './mocks.js';

const element = <T extends HTMLElement>(id: string): T => {
  const found = document.getElementById(id);
  if (!found) throw new Error(`the page has no #${id}`);
  return found as T;
};
const rows = element<HTMLTableSectionElement>('orders');
const status = element<HTMLParagraphElement>('status');
const withoutKey = element<HTMLInputElement>('without-key');

const api = createOrdersApi(`${location.origin}/v1`, EXAMPLE_API_KEY, () => withoutKey.checked);

function say(text: string, isError = false): void {
  status.textContent = text;
  status.classList.toggle('error', isError);
}

function hasId(order: Order): order is Order & { id: Int64String } {
  return order.id !== undefined;
}

function row(order: Order & { id: Int64String }): HTMLTableRowElement {
  const tr = document.createElement('tr');
  tr.dataset.id = order.id;
  const cells = [order.id, order.petId, order.quantity, order.shipDate, order.complete ? 'yes' : 'no'];
  for (const text of cells.map((cell) => String(cell ?? ''))) {
    const td = document.createElement('td');
    td.textContent = text;
    tr.append(td);
  }
  const button = document.createElement('button');
  button.type = 'button';
  button.textContent = 'Cancel';
  button.addEventListener('click', () => void cancel(order.id));
  const td = document.createElement('td');
  td.append(button);
  tr.append(td);
  return tr;
}

async function load(): Promise<void> {
  const listed = await api.listOrders();
  if (!listed.ok) {
    rows.replaceChildren();
    say(`${listed.error.status}: ${listed.error.message}`, true);
    return;
  }
  // No field of Order is required (§2); an order without an id could not be cancelled, so it is not shown.
  rows.replaceChildren(...listed.value.filter(hasId).map(row));
  say(`${listed.value.length} orders`);
}

async function cancel(id: Int64String): Promise<void> {
  const outcome = await api.cancelOrder(id);
  if (!outcome.ok) {
    say(`${outcome.error.status}: ${outcome.error.message}`, true);
    return;
  }
  await load();
  say(`Cancelled order ${id}.`);
}

element<HTMLButtonElement>('reload').addEventListener('click', () => void load());
const mock = await startMocks();
// The mock's state beside the app, with the handlers' key: a panel over the page, or in #inspector.
element<HTMLButtonElement>('inspect').addEventListener('click', () => void mountInspector(mock));
element<HTMLButtonElement>('inspect-here').addEventListener(
  'click',
  () => void mountInspector(mock, { target: element('inspector') }),
);
await load();
document.body.dataset.ready = 'true';
