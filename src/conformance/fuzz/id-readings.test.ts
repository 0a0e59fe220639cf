import { describe, expect, it } from 'vitest';
import { clearOf } from './id-readings.js';

const known = (...ids: string[]) => new Set(ids);

describe('a generated id is sent only when no lenient reading of it names a known order', () => {
  it.each([
    ['digits then letters are read as their prefix', '3abc', known('3'), false],
    ['a percent-encoded digit decodes to the digit', '%33', known('3'), false],
    ['hexadecimal names its value', '0x3', known('3'), false],
    ['a leading plus is dropped', '+3', known('3'), false],
    ['a fraction rounds up', '3.9', known('4'), false],
    ['2^32 + 3 wraps to 3 in 32 bits', '4294967299', known('3'), false],
    ['2^64 + 3 wraps to 3 in 64 bits', '18446744073709551619', known('3'), false],
    ['a leading zero reads as octal', '010', known('8'), false],
    ['digits stripped of what is between them', 'a1b2', known('12'), false],
    ['a fullwidth digit is its NFKC digit', '%EF%BC%91', known('1'), false],
    ['a digit of another script is never safe', '%D9%A3', known('999'), false],
    ['a negative id names its absolute value too', '-5', known('5'), false],
    ['letters are atoi 0', 'abc', known('0'), false],
    ['letters are safe when 0 is no order', 'abc', known('1', '2', '3'), true],
    ['a broken escape without digits is safe', '%E0%A4%A', known('1', '2', '3'), true],
    ['an unused id is safe', '424242424', known('1', '2', '3'), true],
  ] as const)('%s', (_name, segment, orders, want) => {
    expect(clearOf(segment, orders)).toBe(want);
  });
});
