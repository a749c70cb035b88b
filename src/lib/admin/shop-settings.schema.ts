import { z } from '../zod.ts';
import { text } from '../validation.ts';
import { EmailSchema } from '../validation.ts';

/**
 * Who the shop is: the admin settings form, checked by the same schema in the browser and on the
 * server (client-safe; messages are translation keys). Read by the layout, mails, legal pages and
 * receipts through functions/shop/settings.ts.
 */
export const SOCIAL_LINKS_MAX = 6;
export const TAX_RATE_MAX = 50;
export const MONEY_BACK_DAYS_MAX = 365;

const line = (max: number) => text('errors.badRequest').trim().max(max, 'validation.tooLong');

/** Whole or decimal percent as text from a number input: "" is 0 (no tax line on receipts). */
const TaxRate = z.preprocess(
  (value) => (typeof value === 'string' ? (value.trim() === '' ? 0 : Number(value.trim().replace(',', '.'))) : value),
  z
    .number('admin.settings.taxRateInvalid')
    .min(0, 'admin.settings.taxRateInvalid')
    .max(TAX_RATE_MAX, 'admin.settings.taxRateInvalid')
    .refine((rate) => Number.isInteger(rate * 100), 'admin.settings.taxRateInvalid'),
);

/**
 * The money-back guarantee the seller gives on paid courses, in days: 0 (or empty) gives none, and no
 * page promises one. Settings saved before the field existed keep the 30 days the shipped legal texts
 * promised.
 */
const MoneyBackDays = z.preprocess(
  (value) => (typeof value === 'string' ? (value.trim() === '' ? 0 : Number(value.trim())) : value),
  z
    .number('admin.settings.moneyBackDaysInvalid')
    .int('admin.settings.moneyBackDaysInvalid')
    .min(0, 'admin.settings.moneyBackDaysInvalid')
    .max(MONEY_BACK_DAYS_MAX, 'admin.settings.moneyBackDaysInvalid')
    .default(30),
);

/** One https address per line (or a list): at most six, duplicates dropped. */
const SocialLinks = z
  .union([line(2000), z.array(line(300)).max(SOCIAL_LINKS_MAX, 'admin.settings.socialLinksTooMany')], 'errors.badRequest')
  .default([])
  .transform((value) => [
    ...new Set((Array.isArray(value) ? value : value.split(/\r?\n/)).map((url) => url.trim()).filter(Boolean)),
  ])
  .pipe(
    z
      .array(z.url({ protocol: /^https$/, error: 'admin.settings.socialLinkInvalid' }).max(300, 'validation.tooLong'))
      .max(SOCIAL_LINKS_MAX, 'admin.settings.socialLinksTooMany'),
  );

export const ShopSettingsSchema = z.object({
  shopName: line(80).min(1, 'admin.settings.shopNameRequired'),
  legalName: line(160),
  address: text('errors.badRequest').trim().max(400, 'validation.tooLong'),
  supportEmail: EmailSchema,
  phone: line(40).regex(/^[+0-9 ()./-]*$/, 'admin.settings.phoneInvalid'),
  taxNumber: line(40),
  taxRatePercent: TaxRate,
  moneyBackDays: MoneyBackDays,
  socialLinks: SocialLinks,
});

export type ShopSettings = z.infer<typeof ShopSettingsSchema>;
export type ShopSettingsInput = z.input<typeof ShopSettingsSchema>;

/** What a seller must fill before launch: shown in the admin overview until it is there. */
export const REQUIRED_SETTINGS = ['shopName', 'legalName', 'address', 'supportEmail', 'phone', 'taxNumber'] as const;
export type RequiredSetting = (typeof REQUIRED_SETTINGS)[number];

/** The legal texts a seller words per language (the last two are Turkey's distance-sales documents). */
export const LEGAL_PAGES = ['terms', 'privacy', 'refund', 'pre-information', 'distance-contract'] as const;
export type LegalPage = (typeof LEGAL_PAGES)[number];
export const LEGAL_TEXT_MAX = 40_000;

export const LegalTextSchema = z.object({
  body: text('errors.badRequest').trim().min(1, 'admin.settings.legalTextRequired').max(LEGAL_TEXT_MAX, 'validation.tooLong'),
});

/** The placeholders a legal text may use, each filled from the settings (and, in contracts, the order). */
export const LEGAL_PLACEHOLDERS = [
  'shopName',
  'legalName',
  'address',
  'supportEmail',
  'phone',
  'taxNumber',
  'siteUrl',
  'moneyBackDays',
  'paymentProviders',
] as const;
export const ORDER_PLACEHOLDERS = ['buyerName', 'buyerEmail', 'courseTitle', 'price', 'orderDate'] as const;
