import { siteUrl } from '../env.ts';
import type { Db } from '../db/database.ts';
import { readSettings, shopSettings } from './settings.ts';

/** Who the shop is, as e-mails name it: read from the settings (Admin → Settings). */
export interface ShopIdentity {
  name: string;
  /** Empty until the seller sets it: mails then carry no Reply-To. */
  supportEmail: string;
  address: string;
  siteUrl: string;
  /** The money-back guarantee on paid courses, in days; 0: none, and no mail promises one. */
  moneyBackDays: number;
}

/**
 * Inside a transaction, pass it: the read then uses the transaction's own connection, so a
 * transaction holding a lock (receipt numbering) never waits for a second one from the pool.
 */
export async function shopIdentity(database?: Db): Promise<ShopIdentity> {
  const settings = database ? (await readSettings(database)).settings : await shopSettings();
  return {
    name: settings.shopName,
    supportEmail: settings.supportEmail,
    address: settings.address,
    siteUrl: siteUrl(),
    moneyBackDays: settings.moneyBackDays,
  };
}
