import { formatMoney } from './money.ts';
import { lowestPaidMinor } from './pay-what-you-want.ts';
import type { Language } from '../i18n/languages.ts';

type Words = (
  key: 'course.free' | 'course.freeOrPay' | 'course.payWhatYouWant' | 'course.suggestedPrice' | 'course.suggestedPriceFree',
  values: { price?: string; minimum?: string },
) => string;

/**
 * How a course's price reads on cards and pages: its amount or "free", or for pay what you want the
 * offer ("Free, or pay what you like") with the suggestion (and the least a payment is) beside it.
 */
export function priceWords(
  course: { priceMinor: number; minimumPriceMinor: number | null; currency: string },
  lang: Language,
  t: Words,
): { price: string; suggestion: string | null } {
  const money = (minor: number) => formatMoney(minor, course.currency, lang);
  const minimumMinor = course.minimumPriceMinor;
  if (minimumMinor === null)
    return { price: course.priceMinor === 0 ? t('course.free', {}) : money(course.priceMinor), suggestion: null };
  const price = money(course.priceMinor);
  return minimumMinor === 0
    ? { price: t('course.freeOrPay', {}), suggestion: t('course.suggestedPriceFree', { price }) }
    : {
        price: t('course.payWhatYouWant', {}),
        suggestion: t('course.suggestedPrice', {
          price,
          minimum: money(lowestPaidMinor({ minimumMinor, currency: course.currency })),
        }),
      };
}
