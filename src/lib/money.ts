import { LOCALE_OF, type Language } from '../i18n/languages.ts';

/** Minor units per major unit; all three shop currencies use cents. */
const MINOR_UNITS = 100;

/** `formatMoney(499, 'EUR', 'tr')` → `€4,99`. Money is always shown in its own currency. */
export function formatMoney(amountMinor: number, currency: string, lang: Language): string {
  return new Intl.NumberFormat(LOCALE_OF[lang], { style: 'currency', currency }).format(amountMinor / MINOR_UNITS);
}

export function toMinorUnits(major: number): number {
  // Shift the decimal point in text: 1.005 * 100 is 100.49999… in binary floating point.
  return Math.round(Number(`${major}e2`));
}

export function toMajorUnits(minor: number): number {
  return minor / MINOR_UNITS;
}
