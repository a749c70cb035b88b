import { namedPriceSchema } from '../../src/lib/pay-what-you-want.schema.ts';
import { invalid, ok, type Result } from '../../src/lib/result.ts';
import type { MessageKey } from '../../src/i18n/i18n.ts';
import type { PricedCourse } from '../discounts/discounts.ts';

/** A course as checkout prices it: with pay what you want, its minimum (null: a fixed price). */
export interface NamedPriceCourse extends PricedCourse {
  minimumPriceMinor: number | null;
}

/**
 * The course at the price its buyer named, checked by the island's own schema: from here on, the
 * named price is the course's price for this order (discount codes, tax, a free enrolment at 0).
 * A fixed-price course ignores the field; one left out (an older client) is the suggested price.
 */
export function withNamedPrice<C extends NamedPriceCourse>(course: C, price: string | undefined): Result<C> {
  if (course.minimumPriceMinor === null || price === undefined) return ok(course);
  const parsed = namedPriceSchema({ minimumMinor: course.minimumPriceMinor, currency: course.currency }).safeParse(price);
  if (parsed.success) return ok({ ...course, priceMinor: parsed.data });
  const message = (parsed.error.issues[0]?.message ?? 'checkout.namedPrice.invalid') as MessageKey;
  return invalid('price_refused', message, { price: message });
}
