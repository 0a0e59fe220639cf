import { describe, expect, it } from 'vitest';
import { RequestLog } from './request-log.js';

describe('the request log', () => {
  it('keeps only the most recent entries, however many requests come', () => {
    const log = new RequestLog(50);
    for (let i = 0; i < 100_000; i++) log.add(0, 'GET', `/v1/store/orders?i=${i}`, 200, 0.1);
    const entries = log.entries();
    expect(entries).toHaveLength(50);
    expect(entries[0]?.path).toBe('/v1/store/orders?i=99950');
    expect(entries[49]?.path).toBe('/v1/store/orders?i=99999');
  });

  it('cuts long paths and formats times on read', () => {
    const log = new RequestLog(2);
    log.add(Date.UTC(2026, 0, 1), 'GET', `/${'x'.repeat(1000)}`, 404, 1.23456);
    const [entry] = log.entries();
    expect(entry?.path.length).toBe(256);
    expect(entry?.time).toBe('2026-01-01T00:00:00.000Z');
    expect(entry?.durationMs).toBe(1.235);
  });
});
