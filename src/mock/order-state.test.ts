/**
 * The facts of the order state table (§3, D1–D3), pinned here and nowhere else: the document's
 * `x-petstore-order-states` must hold exactly these states and transitions, and the mock reads them.
 */
import { describe, expect, it } from 'vitest';
import { defaultContract, stateTable } from '../contract/index.js';
import { FIXTURES_SCHEMA } from '../generated/fixtures-schema.js';

const contract = defaultContract();

describe('the order state table (x-petstore-order-states)', () => {
  it('holds exactly three states and one cancel transition from each', () => {
    expect(stateTable(contract).states).toEqual(['pending', 'shipped', 'cancelled']);
    expect(
      contract.orderStates.transitions.map((t) => [t.from, t.operation, t.to, t.status, t.code]),
    ).toEqual([
      ['pending', 'cancelOrder', 'cancelled', 204, undefined],
      ['shipped', 'cancelOrder', 'shipped', 409, 'order_already_shipped'],
      ['cancelled', 'cancelOrder', 'cancelled', 404, 'order_not_found'],
    ]);
  });

  it.each([
    { name: 'cancels a pending order with 204', from: 'pending', want: { to: 'cancelled', status: 204 } },
    {
      name: 'refuses to cancel a shipped order with 409',
      from: 'shipped',
      want: { to: 'shipped', status: 409, code: 'order_already_shipped' },
    },
    {
      name: 'answers 404 for an order cancelled before',
      from: 'cancelled',
      want: { to: 'cancelled', status: 404, code: 'order_not_found' },
    },
  ])('$name', ({ from, want }) => {
    expect(stateTable(contract).transition(from, 'cancelOrder')).toMatchObject(want);
  });

  it.each([
    { state: 'pending', listed: true, complete: false },
    { state: 'shipped', listed: true, complete: true },
    { state: 'cancelled', listed: false, complete: false },
  ])(
    'publishes $state orders with listed=$listed complete=$complete (D1, D2)',
    ({ state, listed, complete }) => {
      expect(stateTable(contract).isListed(state)).toBe(listed);
      expect(stateTable(contract).complete(state)).toBe(complete);
    },
  );

  it('has no transition the document does not name', () => {
    expect(stateTable(contract).transition('pending', 'listOrders')).toBeUndefined();
    expect(stateTable(contract).isState('lost')).toBe(false);
  });

  it('follows an altered table, so no transition is hard-coded', () => {
    const table = stateTable({
      orderStates: {
        states: {
          open: { listed: true, complete: false, source: 'test' },
          closed: { listed: false, source: 'test' },
        },
        transitions: [{ from: 'open', operation: 'cancelOrder', to: 'closed', status: 204, source: 'test' }],
      },
    });
    expect(table.states).toEqual(['open', 'closed']);
    expect(table.transition('open', 'cancelOrder')?.to).toBe('closed');
  });

  it('lists the same states in the fixture schema as in the document', () => {
    const schema = FIXTURES_SCHEMA as {
      properties: { orders: { items: { properties: { status: unknown } } } };
    };
    expect(schema.properties.orders.items.properties.status).toMatchObject({
      enum: stateTable(contract).states,
    });
  });
});
