import { describe, expect, it } from 'vitest';
import { lenientReadings } from './malformed-ids.js';

describe('lenientReadings', () => {
  it.each([
    { name: 'reads a leading zero as octal, as a careless parser would', raw: '020', want: 16n },
    { name: 'reads a negative octal without throwing (BigInt refuses "-0o…")', raw: '-0553', want: -363n },
    { name: 'reads the atoi prefix of a suffixed id', raw: '20abc', want: 20n },
    { name: 'reads hex', raw: '0x14', want: 20n },
    { name: 'reads letters as atoi does, as 0', raw: 'abc', want: 0n },
  ])('$name', ({ raw, want }) => {
    expect(lenientReadings(raw)).toContain(want);
  });
});
