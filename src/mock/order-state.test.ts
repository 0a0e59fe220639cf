import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FIXTURES_SCHEMA_PATH } from './fixture-files.js';
import { compileOrderStates, orderStates } from './order-state.js';

describe('the order state table (x-petstore-order-states)', () => {
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
    expect(orderStates.transition(from, 'cancelOrder')).toMatchObject(want);
  });

  it.each([
    { state: 'pending', listed: true, complete: false },
    { state: 'shipped', listed: true, complete: true },
    { state: 'cancelled', listed: false, complete: false },
  ])(
    'publishes $state orders with listed=$listed complete=$complete (D1, D2)',
    ({ state, listed, complete }) => {
      expect(orderStates.isListed(state)).toBe(listed);
      expect(orderStates.complete(state)).toBe(complete);
    },
  );

  it('has no transition the document does not name', () => {
    expect(orderStates.transition('pending', 'listOrders')).toBeUndefined();
    expect(orderStates.isState('lost')).toBe(false);
  });

  it('follows an altered table, so no transition is hard-coded', () => {
    const table = compileOrderStates({
      states: {
        open: { listed: true, complete: false, source: 'test' },
        closed: { listed: false, source: 'test' },
      },
      transitions: [{ from: 'open', operation: 'cancelOrder', to: 'closed', status: 204, source: 'test' }],
    });
    expect(table.states).toEqual(['open', 'closed']);
    expect(table.transition('open', 'cancelOrder')?.to).toBe('closed');
  });

  it('lists the same states in the fixture schema as in the document', () => {
    const schema = JSON.parse(readFileSync(FIXTURES_SCHEMA_PATH, 'utf8'));
    expect(schema.properties.orders.items.properties.status.enum).toEqual(orderStates.states);
  });
});
