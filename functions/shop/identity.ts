import { env, siteUrl } from '../env.ts';
import { getT } from '../../src/i18n/i18n.ts';
import { contactInfo } from '../../src/lib/contact-info.ts';
import type { Language } from '../../src/i18n/languages.ts';

/** Who the shop is, as e-mails, receipts and legal pages name it. One source, read per language. */
export interface ShopIdentity {
  name: string;
  supportEmail: string;
  address: string;
  siteUrl: string;
}

export function shopIdentity(language: Language): Promise<ShopIdentity> {
  return Promise.resolve({
    name: getT(language)('site.name'),
    supportEmail: env().SHOP_EMAIL,
    address: contactInfo(language).info.address,
    siteUrl: siteUrl(),
  });
}
