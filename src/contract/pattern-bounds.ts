/** A `--spec` document's patterns run on untrusted input (`^(a+)+$` could hold the event loop for minutes). */

/** The longest string a pattern runs on (longer does not match): 7 ms worst case measured for `^\d*\d*$`. */
export const MAX_PATTERN_INPUT = 1000;

const MAX_FREE = 2;

const QUANTIFIER = /[*+?]|\{(\d+)(,(\d*))?\}/y;

/** Why a pattern's worst case is too slow, or `undefined`; conservative, so some safe patterns are refused. */
export function patternProblem(pattern: string): string | undefined {
  // Per open group, the pattern's own first: whether it holds a quantifier, an alternative or a back-reference.
  const ambiguous = [false];
  const mark = () => ambiguous.fill(true, -1);
  // An unanchored pattern is tried at every start: one more free quantifier, in effect.
  let anchored = pattern.startsWith('^');
  let free = 0;
  let afterAmbiguousGroup = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    QUANTIFIER.lastIndex = i;
    const quantifier = QUANTIFIER.exec(pattern);
    if (quantifier) {
      const [whole, min, comma, max] = quantifier;
      const low = whole === '+' ? 1 : Number(min ?? 0);
      const high = whole === '?' ? 1 : min === undefined || max === '' ? Infinity : Number(comma ? max : min);
      i += whole.length - 1;
      if (pattern[i + 1] === '?') i++;
      if (afterAmbiguousGroup && high > 1)
        return 'repeats a group that itself repeats or has alternatives, which can take exponential time; rewrite it without the nesting';
      if (low !== high) {
        mark();
        free++;
      }
    } else if (c === '\\') {
      const next = pattern[i + 1] ?? '';
      if (/[1-9k]/.test(next)) mark();
      // `\p{L}`, `\u{1F600}`, `\k<name>`: the braces belong to the escape.
      const end = /[pPu]/.test(next) && pattern[i + 2] === '{' ? pattern.indexOf('}', i) : i + 1;
      i = end === -1 ? pattern.length : end;
    } else if (c === '[') {
      for (i++; i < pattern.length && pattern[i] !== ']'; i++) if (pattern[i] === '\\') i++;
    } else if (c === '(') {
      ambiguous.push(false);
      // `(?:`, `(?=`, `(?<!`, `(?<name>`: the `?` opens no quantifier.
      if (pattern[i + 1] === '?') {
        const named = pattern[i + 2] === '<' && !/[=!]/.test(pattern[i + 3] ?? '');
        const close = named ? pattern.indexOf('>', i) : i + (pattern[i + 2] === '<' ? 3 : 2);
        i = close === -1 ? pattern.length : close;
      }
    } else if (c === ')') {
      afterAmbiguousGroup = ambiguous.length > 1 && ambiguous.pop() === true;
      if (afterAmbiguousGroup) mark();
      continue;
    } else if (c === '|') {
      mark();
      // `^a|b*b*x`: the second alternative is tried at every start.
      if (ambiguous.length === 1) anchored = false;
    }
    afterAmbiguousGroup = false;
  }
  if (free + (anchored ? 0 : 1) > MAX_FREE)
    return `has more than ${MAX_FREE} quantifiers (*, +, ?, {m,n}; a pattern without a leading ^ counts one more), which can take polynomial time; use fixed counts ({4}) or fewer quantifiers`;
}

/** Ajv's `code.regExp` for `--spec`: the pattern checked, then run on at most {@link MAX_PATTERN_INPUT} characters. */
export function boundedRegExp(pattern: string, flags: string) {
  const problem = patternProblem(pattern);
  if (problem !== undefined) throw new Error(`the pattern ${JSON.stringify(pattern)} ${problem}`);
  const regExp = new RegExp(pattern, flags);
  // Ajv shares one compiled pattern per `toString()`: it must name the pattern.
  return {
    test: (text: string) => text.length <= MAX_PATTERN_INPUT && regExp.test(text),
    toString: () => String(regExp),
  };
}
boundedRegExp.code = 'boundedRegExp';

/** The first `pattern` or `patternProperties` name of a document that {@link patternProblem} refuses. */
export function documentPatternProblem(node: unknown): string | undefined {
  if (typeof node !== 'object' || node === null) return undefined;
  for (const [key, value] of Object.entries(node)) {
    if (key === 'example' || key === 'examples') continue;
    const patterns =
      key === 'pattern' ? [value] : key === 'patternProperties' ? Object.keys(value ?? {}) : [];
    for (const pattern of patterns.filter((p): p is string => typeof p === 'string')) {
      const problem = patternProblem(pattern);
      if (problem !== undefined) return `pattern ${JSON.stringify(pattern)} ${problem}`;
    }
    const inner = documentPatternProblem(value);
    if (inner !== undefined) return inner;
  }
}
