import { describe, expect, it } from 'vitest';
import { TaxSettingsSchema, overridesText } from './tax-settings.schema.ts';
import { fieldErrors } from '../field-errors.ts';

/** As the admin form sends it: text from the inputs. */
const FORM = {
  sellerCountry: 'tr',
  vatNumber: '',
  taxOffice: 'Kadıköy',
  oss: 'non_union',
  underEuThreshold: false,
  registrations: 'gb,  NO;gb',
  displayMode: 'exclusive',
  rateOverrides: 'DE ebook 7\n\nfr STANDARD 5,5\n',
};

const errorsOf = (input: Record<string, unknown>) => {
  const parsed = TaxSettingsSchema.safeParse({ ...FORM, ...input });
  return parsed.success ? {} : fieldErrors(parsed.error);
};

describe('the tax settings form', () => {
  it('reads country codes, registrations and one override per line as typed', () => {
    const settings = TaxSettingsSchema.parse(FORM);
    expect(settings).toMatchObject({ sellerCountry: 'TR', registrations: ['GB', 'NO'], ebookCourses: [] });
    expect(settings.rateOverrides).toEqual([
      { country: 'DE', category: 'ebook', ratePercent: 7 },
      { country: 'FR', category: 'standard', ratePercent: 5.5 },
    ]);
    // What the form shows again reads back to the same list (stored JSON holds the list itself).
    expect(TaxSettingsSchema.parse({ ...FORM, rateOverrides: overridesText(settings.rateOverrides) }).rateOverrides).toEqual(
      settings.rateOverrides,
    );
    expect(TaxSettingsSchema.parse(settings)).toEqual(settings);
  });

  it('checks a VAT number’s format and check digits, whatever the spaces and case', () => {
    expect(TaxSettingsSchema.parse({ ...FORM, vatNumber: 'de 136.695.976' }).vatNumber).toBe('DE136695976');
    expect(errorsOf({ vatNumber: 'DE136695977' })).toEqual({ vatNumber: 'admin.taxes.vatNumberInvalid' });
    expect(errorsOf({ vatNumber: 'hello' })).toEqual({ vatNumber: 'admin.taxes.vatNumberInvalid' });
  });

  it('refuses unknown countries, bad overrides and the home country among the registrations, at their fields', () => {
    expect(errorsOf({ sellerCountry: 'XX' })).toEqual({ sellerCountry: 'admin.taxes.countryInvalid' });
    expect(errorsOf({ registrations: 'GB, UK' })).toEqual({ registrations: 'admin.taxes.registrationsInvalid' });
    expect(errorsOf({ registrations: 'TR' })).toEqual({ registrations: 'admin.taxes.registrationsHome' });
    for (const line of ['DE ebook', 'DE books 7', 'DE ebook 70', 'DE ebook 7 %', 'ZZ standard 5', 'DE ebook 7.123'])
      expect(errorsOf({ rateOverrides: line }), line).toHaveProperty(['rateOverrides']);
  });
});
