/**
 * The formats the generated validators run with are the ones ajv-formats gives run-time compilation:
 * `isDateTime` is held to ajv-formats' full `date-time` on the cases that tell RFC 3339 readings apart.
 */
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { describe, expect, it } from 'vitest';
import { isDateTime, ucs2length } from './validator-runtime.js';

const ajvDateTime = (fullFormats['date-time'] as { validate: (text: string) => boolean }).validate;

describe('isDateTime (RFC 3339 §5.6)', () => {
  const cases: Array<{ given: string; want: boolean }> = [
    { given: '2026-12-01T10:00:00Z', want: true },
    { given: '2026-12-01t10:00:00z', want: true },
    { given: '2026-12-01 10:00:00Z', want: true },
    { given: '2026-12-01T10:00:00.123+02:00', want: true },
    { given: '2026-12-01T10:00:00+0200', want: true },
    { given: '2024-02-29T00:00:00Z', want: true },
    { given: '2016-12-31T23:59:60Z', want: true },
    { given: '2017-01-01T00:59:60+01:00', want: true },
    { given: '2026-12-01T10:00:00', want: false },
    { given: '2026-12-01', want: false },
    { given: '2026-13-01T10:00:00Z', want: false },
    { given: '2026-00-01T10:00:00Z', want: false },
    { given: '2025-02-29T00:00:00Z', want: false },
    { given: '1900-02-29T00:00:00Z', want: false },
    { given: '2026-04-31T00:00:00Z', want: false },
    { given: '2026-12-01T24:00:00Z', want: false },
    { given: '2026-12-01T10:60:00Z', want: false },
    { given: '2026-12-01T10:00:60Z', want: false },
    { given: '2026-12-01T10:00:00+24:00', want: false },
    { given: '2026-12-01T10:00:00+02:60', want: false },
    { given: '2026-12-01TT10:00:00Z', want: false },
    { given: '', want: false },
  ];
  it.each(cases)('judges $given as ajv-formats does ($want)', ({ given, want }) => {
    expect(isDateTime(given)).toBe(want);
    expect(ajvDateTime(given)).toBe(want);
  });
});

describe('ucs2length', () => {
  it.each([
    { given: '', want: 0 },
    { given: 'abc', want: 3 },
    { given: 'é', want: 1 },
    { given: '😀', want: 1 },
    { given: 'a😀b', want: 3 },
  ])('counts $given as $want characters', ({ given, want }) => {
    expect(ucs2length(given)).toBe(want);
  });
});
