/**
 * A bundle's prices (decision 44), computed, never typed: what its courses cost separately, the
 * saving against that, and what a buyer who owns some of them pays. Client-safe, no I/O.
 */
export interface BundleItemPrice {
  courseId: string;
  priceMinor: number;
}

/** What the bundle's courses cost bought one by one, and what the bundle saves against that (never below 0). */
export function bundleSaving(
  bundlePriceMinor: number,
  items: readonly BundleItemPrice[],
): {
  separateMinor: number;
  savingMinor: number;
} {
  const separateMinor = items.reduce((sum, item) => sum + item.priceMinor, 0);
  return { separateMinor, savingMinor: savingAgainst(separateMinor, bundlePriceMinor) };
}

/** The saving against a separate total already summed (the catalogue sums it in SQL). */
export function savingAgainst(separateMinor: number, bundlePriceMinor: number): number {
  return Math.max(0, separateMinor - bundlePriceMinor);
}

/**
 * What a buyer who owns some of the courses pays: the bundle's price less the owned courses' share of
 * it (their separate prices' share of all), so the buyer keeps the bundle's saving on the rest. With
 * the reduction turned off, or nothing owned, the bundle's price. Owning every course leaves nothing
 * to sell (0 here; checkout says the buyer owns it). The share is a ratio of the courses' prices (all
 * in the bundle's own currency), so it lowers the bundle's price in any currency it is sold in.
 */
export function bundlePriceFor(
  bundle: { priceMinor: number; reducesOwned: boolean },
  items: readonly BundleItemPrice[],
  owned: ReadonlySet<string>,
): { priceMinor: number; ownedCourseIds: string[] } {
  const ownedCourseIds = items.filter((item) => owned.has(item.courseId)).map((item) => item.courseId);
  if (ownedCourseIds.length === items.length) return { priceMinor: 0, ownedCourseIds };
  if (!bundle.reducesOwned || ownedCourseIds.length === 0) return { priceMinor: bundle.priceMinor, ownedCourseIds };
  const { separateMinor } = bundleSaving(bundle.priceMinor, items);
  const ownedMinor = items.filter((item) => owned.has(item.courseId)).reduce((sum, item) => sum + item.priceMinor, 0);
  // Courses that are all free apart: split the price evenly instead.
  const ownedShare = separateMinor > 0 ? ownedMinor / separateMinor : ownedCourseIds.length / items.length;
  return { priceMinor: Math.round(bundle.priceMinor * (1 - ownedShare)), ownedCourseIds };
}
