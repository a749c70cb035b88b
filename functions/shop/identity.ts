import { siteUrl } from '../env.ts';
import type { Db } from '../db/database.ts';
import { shopSettings } from './settings.ts';

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
 * From memory (settings-cache.ts). Inside a transaction, pass it: with nothing cached, the read then
 * uses the transaction's own connection, so one holding a lock never waits for a second from the pool.
 */
export async function shopIdentity(database?: Db): Promise<ShopIdentity> {
  const settings = await shopSettings(database);
  return {
    name: settings.shopName,
    supportEmail: settings.supportEmail,
    address: settings.address,
    siteUrl: siteUrl(),
    moneyBackDays: settings.moneyBackDays,
  };
}
