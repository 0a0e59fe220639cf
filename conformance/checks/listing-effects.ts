/**
 * What a cancel did to the list: after a refused cancel, the orders it named are still listed.
 */
import type { CheckContext } from '../context.js';
import { finding } from '../judge.js';
import type { Finding } from '../types.js';

/**
 * Findings for orders that were listed at the start and are gone now although their cancel was refused.
 * An order that was not listed at the start is list.includes-given-orders' business, not this one's.
 */
export async function stillListed(
  ctx: CheckContext,
  ids: readonly string[],
  why: string,
): Promise<Finding[]> {
  const initial = await ctx.initialListing();
  const watched = ids.filter((id) => initial.ids?.has(id));
  if (watched.length === 0) return [];
  const listing = await ctx.freshListing();
  if (listing.ids === null) {
    return [
      finding(
        listing.exchange,
        ctx.key,
        `could not confirm that order ${watched.join(', ')} is still listed: GET /store/orders gave no usable list`,
        `order ${watched.join(', ')} still listed (${why})`,
      ),
    ];
  }
  return watched
    .filter((id) => !listing.ids?.has(id))
    .map((id) =>
      finding(
        listing.exchange,
        ctx.key,
        `order ${id} is no longer listed after its cancel was refused (${why})`,
        `order ${id} still listed`,
      ),
    );
}
