import { db, type Db } from '../db/database.ts';
import { writeSettingsRow } from '../shop/settings-row.ts';
import { announceChange } from '../http/cache-notify.ts';
import { CATALOGUE_TAG, SHOP_TAG } from '../http/cache-rules.ts';
import { log } from '../log.ts';
import { shopSettings } from '../shop/settings.ts';
import { cachedRead, forgetSettings } from '../shop/settings-cache.ts';
import { TaxSettingsSchema, type TaxCategory, type TaxSettings } from '../../src/lib/admin/tax-settings.schema.ts';
import type { SellerTaxSettings } from './tax-rule.ts';

/**
 * The seller's tax settings: one validated row, read where a price is taxed (checkout, course pages,
 * receipts) from memory (settings-cache.ts), and fresh where the seller edits them. A save announces
 * SHOP_TAG and CATALOGUE_TAG: course pages say whether their prices include tax.
 */

/** Until the seller saves them: no country, so the shop keeps its single included rate. */
export const UNSET_TAX_SETTINGS: TaxSettings = TaxSettingsSchema.parse({
  sellerCountry: '',
  vatNumber: '',
  taxOffice: '',
  oss: 'none',
  underEuThreshold: false,
  displayMode: 'inclusive',
});

export interface StoredTaxSettings {
  settings: TaxSettings;
  saved: boolean;
}

export async function readTaxSettings(database: Db = db()): Promise<StoredTaxSettings> {
  return taxSettingsOfRow(await database.selectFrom('tax_settings').select('settings').executeTakeFirst());
}

/** The settings where a price is taxed: cached (inside a transaction, pass it: settings-cache.ts). */
export function taxSettings(database?: Db): Promise<StoredTaxSettings> {
  return cachedRead('taxes', (through = db()) => readTaxSettings(through), database);
}

/** The tax settings a row holds, or the unset ones without a row. */
function taxSettingsOfRow(row: { settings: unknown } | undefined): StoredTaxSettings {
  if (!row) return { settings: UNSET_TAX_SETTINGS, saved: false };
  const parsed = TaxSettingsSchema.safeParse(row.settings);
  if (parsed.success) return { settings: parsed.data, saved: true };
  // Edited by hand into something the form would refuse: the shop keeps its single rate meanwhile.
  log.error({ issues: parsed.error.issues.length }, 'tax settings in the database are not valid; using the single rate');
  return { settings: UNSET_TAX_SETTINGS, saved: false };
}

/** Saves the settings (already checked by the caller's schema) and purges every cached page. */
export async function saveTaxSettings(settings: TaxSettings, database: Db = db()): Promise<void> {
  await database.transaction().execute(async (trx) => {
    await writeSettingsRow(trx, 'tax_settings', settings);
    await announceChange(trx, SHOP_TAG);
    await announceChange(trx, CATALOGUE_TAG);
  });
  forgetSettings();
}

/** The rule's view of the settings: the shop identity's single rate stands in while no country is set. */
export async function sellerTaxSettings(): Promise<{ rule: SellerTaxSettings; settings: TaxSettings }> {
  const [{ settings }, shop] = await Promise.all([taxSettings(), shopSettings()]);
  return {
    settings,
    rule: {
      sellerCountry: settings.sellerCountry,
      flatRatePercent: shop.taxRatePercent,
      displayMode: settings.displayMode,
      underEuThreshold: settings.underEuThreshold,
      registrations: settings.registrations,
      rateOverrides: settings.rateOverrides,
    },
  };
}

export function courseTaxCategory(settings: TaxSettings, courseId: string): TaxCategory {
  return settings.ebookCourses.includes(courseId) ? 'ebook' : 'standard';
}

/** Admin → Settings → Taxes: the settings and every course by title, to mark the e-books. */
export async function taxSettingsForAdmin() {
  const [stored, courses] = await Promise.all([
    readTaxSettings(),
    db().selectFrom('courses').select(['id', 'title']).orderBy('title').orderBy('id').execute(),
  ]);
  return { ...stored, courses };
}
