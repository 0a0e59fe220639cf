// src/orders.test.tsx
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, it } from 'vitest';
import { Orders } from './orders';
import { mock } from './test/setup';

it('cancels an order', async () => {
  render(<Orders />);
  await userEvent.click(await screen.findByRole('button', { name: 'Cancel order 1' }));
  expect(await screen.findByText('No orders')).toBeVisible();
  expect((await mock.orders())[0]?.state).toBe('cancelled'); // the mock's own view, state included
});

it('cancels the same order again: the reset line put it back', async () => {
  render(<Orders />);
  await userEvent.click(await screen.findByRole('button', { name: 'Cancel order 1' }));
  expect(await screen.findByText('No orders')).toBeVisible();
});
