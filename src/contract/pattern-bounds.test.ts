import { describe, expect, it } from 'vitest';
import { boundedRegExp, MAX_PATTERN_INPUT, patternProblem } from './pattern-bounds.js';

describe('a document pattern is refused when its worst case is slow', () => {
  it.each([
    ['^(a+)+$', /exponential/],
    ['^(a|a)*$', /exponential/],
    ['^(a?a)*$', /exponential/],
    ['^(?:[a-z]+\\.)*com$', /exponential/],
    ['^((ab)*)+$', /exponential/],
    ['^(\\d+){2}$', /exponential/],
    ['^(?<n>a*)*$', /exponential/],
    ['\\d*\\d*x', /polynomial/],
    ['^\\d*\\d*\\d*$', /polynomial/],
    ['^\\d+\\.\\d+\\.\\d+$', /polynomial/],
    ['^a|\\d*\\d*x', /polynomial/],
  ])('refuses %s', (pattern, want) => {
    expect(patternProblem(pattern)).toMatch(want);
  });

  it.each([
    '^@-?[0-9]+$',
    '^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), [0-3][0-9] (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [0-9]{4} [0-2][0-9]:[0-5][0-9]:[0-6][0-9] GMT$',
    '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$',
    '^(?:ab){3}$',
    '^[(+*)]+$',
    '^\\p{L}+$',
    '^\\(\\d+\\)$',
    '[a-z]+',
    '^(?<word>[a-z]+)-\\k<word>$',
  ])('accepts %s', (pattern) => {
    expect(patternProblem(pattern)).toBeUndefined();
  });

  it('names the pattern it refuses and runs the others only on bounded strings', () => {
    expect(() => boundedRegExp('^(a+)+$', 'u')).toThrow('the pattern "^(a+)+$" repeats a group');
    const letters = boundedRegExp('^[a-z]+$', 'u');
    expect(letters.test('a'.repeat(MAX_PATTERN_INPUT))).toBe(true);
    expect(letters.test('a'.repeat(MAX_PATTERN_INPUT + 1))).toBe(false);
  });

  it('ends on every text, even a broken one', () => {
    for (const pattern of ['(?<a', '\\p{', '[abc', '(((', ')))', '{', 'a{1,', '\\']) {
      expect(typeof (patternProblem(pattern) ?? '')).toBe('string');
    }
  });
});
