import { z } from '../zod.ts';
import { text } from '../validation.ts';
import { uuidSchema } from '../uuid.schema.ts';
import { CURRENCIES } from '../course-filters.ts';
import { isCountryCode } from '../countries.ts';
import { vatNumberCountry } from '../vat-number.ts';
import { normalizeVatNumber } from '../vat-number-format.ts';

/**
 * The seller's tax settings (Admin → Settings → Taxes), checked by the same schema in the browser and
 * on the server (client-safe; messages are translation keys), read through functions/taxes/settings.ts
 * and turned into the rule's input there. The tax number itself is the shop identity's `taxNumber`.
 */
/** Standard, or the reduced rate some countries apply to e-books (functions/taxes/ebook-rates.json). */
export const TAX_CATEGORIES = ['standard', 'ebook'] as const;
export type TaxCategory = (typeof TAX_CATEGORIES)[number];
export const OSS_SCHEMES = ['none', 'union', 'non_union'] as const;
export const DISPLAY_MODES = ['inclusive', 'exclusive'] as const;
export const OVERRIDE_RATE_MAX = 50;

const country = (message: string) =>
  text('errors.badRequest')
    .trim()
    .transform((value) => value.toUpperCase())
    .refine((value): boolean => value === '' || isCountryCode(value), message);

/** A list of country codes typed as "TR, GB" (or sent as an array): upper case, duplicates dropped. */
const Registrations = z
  .union([text('errors.badRequest').max(2000, 'validation.tooLong'), z.array(text('errors.badRequest')).max(300)])
  .default([])
  .transform((value) => [
    ...new Set((Array.isArray(value) ? value : value.split(/[\s,;]+/)).map((code) => code.trim().toUpperCase()).filter(Boolean)),
  ])
  .refine((codes): boolean => codes.every((code) => isCountryCode(code)), 'admin.taxes.registrationsInvalid');

const OverrideSchema = z.object({
  country: country('admin.taxes.overridesInvalid').refine(Boolean, 'admin.taxes.overridesInvalid'),
  category: z.enum(TAX_CATEGORIES, 'admin.taxes.overridesInvalid'),
  ratePercent: z
    .number('admin.taxes.overridesInvalid')
    .min(0, 'admin.taxes.overridesInvalid')
    .max(OVERRIDE_RATE_MAX, 'admin.taxes.overridesInvalid')
    .refine((rate) => Number.isInteger(rate * 100), 'admin.taxes.overridesInvalid'),
});

/** One override per line, "DE ebook 7" or "FR standard 20" (a comma is a decimal point too), or the stored list. */
const RateOverrides = z
  .union([text('errors.badRequest').max(5000, 'validation.tooLong'), z.array(z.unknown()).max(600)])
  .default([])
  .transform((value) =>
    Array.isArray(value)
      ? value
      : value
          .split(/\r?\n/)
          .map((line) => line.trim().split(/\s+/))
          .filter((words) => words.join('') !== '')
          .map(([code = '', category = '', rate = '', ...rest]) =>
            rest.length > 0
              ? null
              : {
                  country: code,
                  category: category.toLowerCase(),
                  ratePercent: rate === '' ? Number.NaN : Number(rate.replace(',', '.')),
                },
          ),
  )
  .pipe(z.array(OverrideSchema, 'admin.taxes.overridesInvalid'));

export const TaxSettingsSchema = z
  .object({
    sellerCountry: country('admin.taxes.countryInvalid'),
    vatNumber: text('errors.badRequest')
      .max(40, 'validation.tooLong')
      .transform(normalizeVatNumber)
      .refine((value) => value === '' || vatNumberCountry(value) !== undefined, 'admin.taxes.vatNumberInvalid'),
    taxOffice: text('errors.badRequest').trim().max(80, 'validation.tooLong'),
    oss: z.enum(OSS_SCHEMES, 'errors.badRequest'),
    underEuThreshold: z.boolean('errors.badRequest'),
    registrations: Registrations,
    displayMode: z.enum(DISPLAY_MODES, 'errors.badRequest'),
    rateOverrides: RateOverrides,
    /** The currency the seller's returns are in: the report converts to it at the ECB's reference rates. */
    reportingCurrency: z.enum(CURRENCIES, 'errors.badRequest').default('EUR'),
    /** The courses sold at the reduced e-book rate where a country has one (the others are standard). */
    ebookCourses: z.array(uuidSchema('errors.badRequest')).max(10_000).default([]),
  })
  .superRefine((settings, context) => {
    if (settings.registrations.includes(settings.sellerCountry) && settings.sellerCountry)
      context.addIssue({ code: 'custom', path: ['registrations'], message: 'admin.taxes.registrationsHome' });
  });

export type RateOverride = z.infer<typeof OverrideSchema>;
export type TaxSettings = z.infer<typeof TaxSettingsSchema>;
export type TaxSettingsInput = z.input<typeof TaxSettingsSchema>;

/** The overrides as the form's text area shows them, one per line. */
export function overridesText(overrides: readonly RateOverride[]): string {
  return overrides.map((entry) => `${entry.country} ${entry.category} ${entry.ratePercent}`).join('\n');
}
