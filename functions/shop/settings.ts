import { db, type Db } from '../db/database.ts';
import { writeSettingsRow } from './settings-row.ts';
import { cachedRead, forgetSettings } from './settings-cache.ts';
import { announceChange } from '../http/cache-notify.ts';
import { SHOP_TAG } from '../http/cache-rules.ts';
import { log } from '../log.ts';
import {
  REQUIRED_SETTINGS,
  ShopSettingsSchema,
  type RequiredSetting,
  type ShopSettings,
  type ShopSettingsInput,
} from '../../src/lib/admin/shop-settings.schema.ts';

/**
 * The shop's identity: one validated row, cached in memory (settings-cache.ts). A save announces
 * SHOP_TAG, which drops it and every cached page in every instance (the page footer names the shop).
 */

/** Until the seller saves the settings: nothing invented, only the product's name. */
export const UNSET_SETTINGS: ShopSettings = {
  shopName: 'MicroCourses',
  legalName: '',
  address: '',
  supportEmail: '',
  phone: '',
  taxNumber: '',
  taxRatePercent: 0,
  moneyBackDays: 0,
  socialLinks: [],
};

export interface StoredSettings {
  settings: ShopSettings;
  /** False until the seller (or the demo seed) saved them. */
  saved: boolean;
  updatedAt: Date | null;
}

/** The settings as pages, mails and receipts use them (inside a transaction, pass it: settings-cache.ts). */
export async function shopSettings(database?: Db): Promise<ShopSettings> {
  return (await storedShopSettings(database)).settings;
}

export function storedShopSettings(database?: Db): Promise<StoredSettings> {
  return cachedRead('shop', (through = db()) => readSettings(through), database);
}

export async function readSettings(database: Db): Promise<StoredSettings> {
  return settingsOfRow(await database.selectFrom('shop_settings').select(['settings', 'updated_at']).executeTakeFirst());
}

/** The settings a row holds, or the unset ones without a row. */
function settingsOfRow(row: { settings: unknown; updated_at: Date } | undefined): StoredSettings {
  if (!row) return { settings: UNSET_SETTINGS, saved: false, updatedAt: null };
  const parsed = ShopSettingsSchema.safeParse(row.settings);
  if (!parsed.success) {
    // Edited by hand into something the form would refuse: the shop still runs, the admin sees what is missing.
    log.error({ issues: parsed.error.issues.length }, 'shop settings in the database are not valid; using what is valid');
    return { settings: { ...UNSET_SETTINGS, ...validFields(row.settings) }, saved: true, updatedAt: row.updated_at };
  }
  return { settings: parsed.data, saved: true, updatedAt: row.updated_at };
}

function validFields(stored: unknown): Partial<ShopSettings> {
  if (typeof stored !== 'object' || stored === null) return {};
  const fields: Partial<ShopSettings> = {};
  for (const [key, schema] of Object.entries(ShopSettingsSchema.shape)) {
    const parsed = schema.safeParse((stored as Record<string, unknown>)[key]);
    if (parsed.success) Object.assign(fields, { [key]: parsed.data });
  }
  return fields;
}

/** Saves the settings (already checked by the caller's schema) and purges every cached page. */
export async function saveShopSettings(settings: ShopSettings, database: Db = db()): Promise<void> {
  await database.transaction().execute(async (trx) => {
    await writeSettingsRow(trx, 'shop_settings', settings);
    await announceChange(trx, SHOP_TAG);
  });
  forgetSettings();
}

/** Fills the settings from input that passed the schema elsewhere (the seed's demo values). */
export function parseShopSettings(input: ShopSettingsInput): ShopSettings {
  return ShopSettingsSchema.parse(input);
}

/** What the admin overview lists as still to fill before launch. */
export function missingSettings({ settings, saved }: StoredSettings): RequiredSetting[] {
  if (!saved) return [...REQUIRED_SETTINGS];
  return REQUIRED_SETTINGS.filter((field) => settings[field].trim() === '');
}

/** For page layouts: the settings, or, when the database cannot answer (the error page), the unset ones. */
export async function settingsForPage(): Promise<ShopSettings> {
  try {
    return await shopSettings();
  } catch (error) {
    log.error({ err: error }, 'shop settings could not be read for a page');
    return UNSET_SETTINGS;
  }
}
