import { siteUrl } from '../env.ts';
import { shopSettings } from './settings.ts';

/** Who the shop is, as e-mails name it: read from the settings (Admin → Settings). */
export interface ShopIdentity {
  name: string;
  /** Empty until the seller sets it: mails then carry no Reply-To. */
  supportEmail: string;
  address: string;
  siteUrl: string;
}

export async function shopIdentity(): Promise<ShopIdentity> {
  const settings = await shopSettings();
  return { name: settings.shopName, supportEmail: settings.supportEmail, address: settings.address, siteUrl: siteUrl() };
}
