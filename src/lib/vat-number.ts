import { checkVAT, countries } from 'jsvat';
import { normalizeVatNumber } from './vat-number-format.ts';

/**
 * A VAT number whose format and check digits are right for its country (jsvat), with that country
 * as an ISO code (Greece's EL prefix gives GR); undefined for anything else. Says nothing about
 * whether the number is registered: that is VIES's answer (functions/taxes/vies.ts).
 */
export function vatNumberCountry(value: string): string | undefined {
  const result = checkVAT(normalizeVatNumber(value), countries);
  return result.isValid ? result.country?.isoCode.short : undefined;
}
