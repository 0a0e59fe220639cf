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

  it('keeps requests without a key in a ring of their own, which never evicts a keyed entry', () => {
    const log = new RequestLog(3, 2);
    log.add(0, 'GET', '/keyed-0', 200, 1);
    for (let i = 0; i < 500; i++) log.keyless?.add(0, 'GET', `/keyless-${i}`, 401, 1);
    log.add(0, 'GET', '/keyed-1', 200, 1);
    log.keyless?.add(0, 'OPTIONS', '/keyless-500', 204, 1);
    expect(log.entries().map((e) => `${e.path} ${e.authenticated}`)).toEqual([
      '/keyed-0 true',
      '/keyless-499 false',
      '/keyed-1 true',
      '/keyless-500 false',
    ]);
  });

  it('has no keyless ring unless asked for one', () => {
    expect(new RequestLog(3).keyless).toBeUndefined();
  });
});
