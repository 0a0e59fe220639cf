import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CARELESS_PARSERS } from '../../../test-support/servers/careless-parsers.js';
import { defaultContract } from '../../contract/index.js';
import { lenientReadings } from '../checks/malformed-ids.js';
import { safePlan } from './phase.js';
import { type DrawnRequest, fuzzRequests } from './requests.js';

const contract = defaultContract();

/** Every id a careless server could take from a segment: each parser on the raw and the decoded text. */
function carelessReadings(segment: string): bigint[] {
  const texts = [segment];
  try {
    texts.push(decodeURIComponent(segment));
  } catch {
    // A broken escape: only the raw text reaches the parser.
  }
  return texts.flatMap((text) => [
    ...lenientReadings(text),
    ...CARELESS_PARSERS.flatMap((p) => p.read(text) ?? []),
  ]);
}

/** The ids on the wire: the path segments of the plan where the drawn request has `{id}`. */
function sentIds(request: DrawnRequest, known: ReadonlySet<string>): string[] {
  const path = safePlan(request, known)?.plan.path;
  if (path === undefined) return [];
  const parts = (path.split('?')[0] ?? '').split('/').slice(1);
  return request.segments.flatMap((s, i) => (s === '{id}' ? [parts[i] ?? ''] : []));
}

describe('the ids the fuzz phase sends', () => {
  // Orders 1 to 299 are listed: most careless readings of a random id land on one of them.
  const forbidden = new Set(Array.from({ length: 299 }, (_, i) => String(i + 1)));
  const drawn = fc.sample(fuzzRequests(contract), { seed: 42, numRuns: 3000 });

  it('are read by no careless parser as a listed order', () => {
    const sent = drawn.flatMap((request) => sentIds(request, forbidden));
    expect(sent.length).toBeGreaterThan(1000);
    const hits = sent.filter((id) => carelessReadings(id).some((r) => forbidden.has(String(r))));
    expect(hits).toEqual([]);
  });

  it('keep their drawn value when it is safe, so most of the breadth is kept', () => {
    const kept = drawn.flatMap((request) => sentIds(request, forbidden)).filter((id) => id !== 'fuzz-id');
    expect(kept.length).toBeGreaterThan(300);
  });

  it('carry no body with the key to a documented path, and no key to a write the document does not list', () => {
    const usable = (r: (typeof drawn)[number]) =>
      r.auth.kind === 'valid' || JSON.stringify(r.auth).includes('$KEY');
    const documented = (r: (typeof drawn)[number]) =>
      contract.operations.filter(
        (op) => `/${r.segments.join('/')}` === op.path.replace(/\{[^}]+\}/g, '{id}'),
      );
    const writes = drawn.filter((r) => r.method !== 'GET' && documented(r).length > 0);
    expect(writes.length).toBeGreaterThan(100);
    const leaks = writes.filter(
      (r) =>
        usable(r) &&
        (r.body !== undefined || !documented(r).some((op) => op.method.toUpperCase() === r.method)),
    );
    expect(leaks.map((r) => `${r.method} /${r.segments.join('/')} ${r.body ?? ''}`)).toEqual([]);
  });

  it('are none when the list was not read in full', () => {
    const withIds = drawn.filter((request) => request.ids.length > 0);
    expect(withIds.length).toBeGreaterThan(1000);
    expect(withIds.map((request) => safePlan(request, null))).toEqual(withIds.map(() => null));
  });
});
