import { db, type Db } from '../db/database.ts';
import { writeSettingsRow } from './settings-row.ts';
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
 * The shop's identity: one validated row, cached in memory. A save announces SHOP_TAG, which drops
 * this cache and every cached page in every instance (the page footer names the shop); the time
 * limit is only the ceiling for changes made straight in the database.
 */
const FRESH_MS = 60_000;

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

// The server bundle and the start script each load this module; both must drop the same cache.
const CACHE_KEY = Symbol.for('microcourses.shop-settings');
type CacheHolder = { [CACHE_KEY]?: { at: number; value: Promise<StoredSettings> } | undefined };
const holder = globalThis as CacheHolder;

export function forgetShopSettings(): void {
  holder[CACHE_KEY] = undefined;
}

/** The settings as pages, mails and receipts use them. */
export async function shopSettings(): Promise<ShopSettings> {
  return (await storedShopSettings()).settings;
}

export function storedShopSettings(): Promise<StoredSettings> {
  const cached = holder[CACHE_KEY];
  if (cached && Date.now() - cached.at < FRESH_MS) return cached.value;
  const value = readSettings(db());
  holder[CACHE_KEY] = { at: Date.now(), value };
  // A failed read is not kept: the next caller tries again.
  value.catch(() => {
    if (holder[CACHE_KEY]?.value === value) forgetShopSettings();
  });
  return value;
}

export async function readSettings(database: Db): Promise<StoredSettings> {
  return settingsOfRow(await database.selectFrom('shop_settings').select(['settings', 'updated_at']).executeTakeFirst());
}

/** The settings a row holds (read with others in one statement, numbering.ts), or the unset ones without a row. */
export function settingsOfRow(row: { settings: unknown; updated_at: Date } | undefined): StoredSettings {
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
  forgetShopSettings();
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
