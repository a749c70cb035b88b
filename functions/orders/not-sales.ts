import { IMPORTED_PROVIDER } from './imported.ts';
import { BUNDLE_PROVIDER } from './bundles.ts';
import { GIFT_PROVIDER } from './gifts.ts';

/**
 * Purchases that are no sale of this shop, by their provider: buyers imported from another platform,
 * a bundle's courses (paid for on its order) and a gift's course granted to its recipient (paid for
 * on the gift's order). Sales, analytics, the overview and the funnel leave them out, or they would
 * count one payment several times, as €0 lines.
 */
export const NOT_SALES = [IMPORTED_PROVIDER, BUNDLE_PROVIDER, GIFT_PROVIDER];
