// src/orders.tsx
import type { Int64String, Order } from 'petstore-contract-toolkit/client';
import { useEffect, useState } from 'react';
import { api } from './api';

type Listed = Order & { id: Int64String };
interface View {
  orders: Listed[];
  problem?: string;
}

async function listOrders(): Promise<View> {
  const { data, error } = await api.GET('/store/orders');
  // Ids are exact decimal strings; narrow once here so the rest needs no `!`.
  const orders = (data ?? []).filter((order): order is Listed => order.id !== undefined);
  return { orders, problem: error?.message };
}

export function Orders() {
  const [view, setView] = useState<View>();
  useEffect(() => {
    listOrders().then(setView);
  }, []);

  async function cancel(orderId: Int64String) {
    const { error } = await api.DELETE('/store/orders/{orderId}', { params: { path: { orderId } } });
    const next = await listOrders();
    setView({ ...next, problem: error?.message ?? next.problem });
  }

  if (!view) return <p>Loading…</p>;
  return (
    <section>
      {view.problem && <p role="alert">{view.problem}</p>}
      {view.orders.length === 0 && <p>No orders</p>}
      <ul>
        {view.orders.map((order) => (
          <li key={order.id}>
            Order {order.id}: {order.complete ? 'shipped' : 'pending'}{' '}
            <button type="button" onClick={() => cancel(order.id)}>
              Cancel order {order.id}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
