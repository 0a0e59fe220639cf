/**
 * A YAML alias bomb that passes the alias-count cap: a string of `stringBytes`, then `levels` lists of two
 * aliases of the level below, each anchored on a pet of its own (pets take any extra field), and one pet
 * that names the top. 2 × levels + 1 aliases (29 by default, under the cap of 30), about 60 KB of text,
 * expanding to 2^levels copies of the string (about 950 MB by default).
 *
 * @example parseFixtureText(aliasBomb(), 'bomb.yaml') // refused: expands to more than 64 MiB
 */
export function aliasBomb(levels = 14, stringBytes = 58_000): string {
  const lines = ['orders: []', 'pets:', `  - { id: 1, s: &l0 "${'x'.repeat(stringBytes)}" }`];
  for (let level = 1; level <= levels; level++) {
    lines.push(`  - { id: ${level + 1}, l: &l${level} [*l${level - 1}, *l${level - 1}] }`);
  }
  lines.push(`  - { id: ${levels + 2}, name: *l${levels} }`, '');
  return lines.join('\n');
}
