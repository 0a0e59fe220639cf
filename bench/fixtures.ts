/** Builds the benchmark's fixture files: n orders, alternating pending and shipped, deterministic. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface BenchFixture {
  path: string;
  /** An id whose order is shipped, for the 409 scenario. */
  shippedId: number;
}

export function writeBenchFixture(dir: string, name: string, count: number, apiKey: string): BenchFixture {
  const day = 24 * 60 * 60 * 1000;
  const start = Date.UTC(2026, 10, 1, 9, 30);
  const orders = Array.from({ length: count }, (_, i) => ({
    id: i + 1,
    petId: 10 + (i % 50),
    quantity: 1 + (i % 4),
    shipDate: new Date(start + (i % 90) * day).toISOString().replace('.000Z', 'Z'),
    status: i % 2 === 0 ? 'pending' : 'shipped',
  }));
  const path = join(dir, name);
  writeFileSync(
    path,
    JSON.stringify({
      apiKeys: [apiKey],
      pets: [{ id: 10, name: 'Rex' }],
      petsSunset: '2027-06-30T00:00:00Z',
      orders,
    }),
  );
  return { path, shippedId: 2 };
}
