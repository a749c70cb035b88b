import { getT } from '../../src/i18n/i18n.ts';
import type { Language } from '../../src/i18n/languages.ts';
import { formatUtcDateTime } from '../../src/lib/dates.ts';
import { formatMoney } from '../../src/lib/money.ts';
import type { NextCourseOffer } from './next-course.ts';

/** An offer as the success page and the materials mail word it, in the buyer's language. */
export interface OfferWords {
  title: string;
  /** The price the buyer would pay: the offer's, or the course's. */
  price: string;
  /** The lowest price of the last 30 days and the reduction against it, when the offer is below it. */
  before?: string;
  reduction?: string;
  /** When a one-time price ends: a fixed moment, never a countdown. */
  until?: string;
  action: string;
}

/** The next course as the materials mail shows it, with the way to stop such mail. */
export interface MailOffer extends OfferWords {
  url: string;
  preferencesUrl: string;
}

export function offerWords(offer: NextCourseOffer, lang: Language): OfferWords {
  const t = getT(lang);
  const { course, discount } = offer;
  const price = formatMoney(discount?.totalMinor ?? course.priceMinor, course.currency, lang);
  return {
    title: course.title,
    price,
    ...(discount?.before
      ? {
          before: t('offer.before', { price: formatMoney(discount.before.priceMinor, course.currency, lang) }),
          reduction: t('offer.reduction', { percent: discount.before.percent }),
        }
      : {}),
    ...(discount ? { until: t('offer.until', { time: formatUtcDateTime(discount.endsAt, lang) }) } : {}),
    action: discount ? t('offer.buy', { price }) : t('offer.view'),
  };
}
