import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { db } from '../db/database.ts';
import { announceChange } from '../http/cache-notify.ts';
import { siteUrl } from '../env.ts';
import { renderPostContent } from '../blog/render.ts';
import { SHOP_TAG } from '../http/cache-rules.ts';
import { shopSettings } from './settings.ts';
import { cachedRead, forgetSettings } from './settings-cache.ts';
import { PAYMENT_PROVIDERS } from '../payments/registry.ts';
import type { Language } from '../../src/i18n/languages.ts';
import type { LegalPage, ORDER_PLACEHOLDERS, ShopSettings } from '../../src/lib/admin/shop-settings.schema.ts';

/**
 * Legal texts are Markdown templates: the shipped wording (content/legal/<language>/<page>.md) or
 * the seller's own from Admin → Settings, filled with the shop's settings ({{legalName}}, …) and, in
 * the distance-sales documents, with the order ({{buyerName}}, …). Rendered through the blog's
 * sanitizer, so a seller's text can hold nothing a post could not.
 */
// Read from the project folder the shop runs in (like its data folder), once per text.
const SHIPPED = new Map<string, string>();

/** Which texts each language has: Turkey's distance-sales documents exist in Turkish only. */
export const LEGAL_PAGES_OF: Record<Language, readonly LegalPage[]> = {
  en: ['terms', 'privacy', 'refund'],
  tr: ['terms', 'privacy', 'refund', 'pre-information', 'distance-contract'],
};

export type OrderValues = Record<(typeof ORDER_PLACEHOLDERS)[number], string>;

export function shippedLegalText(language: Language, page: LegalPage): string {
  const file = path.resolve('content/legal', language, `${page}.md`);
  if (!SHIPPED.has(file)) SHIPPED.set(file, readFileSync(file, 'utf8').trim());
  return SHIPPED.get(file)!;
}

export interface LegalText {
  body: string;
  /** The seller's own wording (false: the shipped one). */
  custom: boolean;
}

/** The seller's wording, else the shipped one: cached (settings-cache.ts). */
export function legalText(language: Language, page: LegalPage): Promise<LegalText> {
  return cachedRead(`legal ${language} ${page}`, () => readLegalText(language, page));
}

async function readLegalText(language: Language, page: LegalPage): Promise<LegalText> {
  const row = await db()
    .selectFrom('legal_texts')
    .select('body')
    .where('language', '=', language)
    .where('page', '=', page)
    .executeTakeFirst();
  return row ? { body: row.body, custom: true } : { body: shippedLegalText(language, page), custom: false };
}

/** Saves the seller's wording; `undefined` brings the shipped wording back. Purges the cached pages. */
export async function saveLegalText(language: Language, page: LegalPage, body: string | undefined): Promise<void> {
  await db()
    .transaction()
    .execute(async (trx) => {
      if (body === undefined) {
        await trx.deleteFrom('legal_texts').where('language', '=', language).where('page', '=', page).execute();
      } else {
        await trx
          .insertInto('legal_texts')
          .values({ language, page, body, updated_at: new Date() })
          .onConflict((conflict) =>
            conflict
              .columns(['language', 'page'])
              .doUpdateSet({ body: sql`excluded.body`, updated_at: sql`excluded.updated_at` }),
          )
          .execute();
      }
      await announceChange(trx, SHOP_TAG);
    });
  forgetSettings();
}

/** Markdown's own characters in a filled value are text, not formatting. */
function escapeMarkdown(value: string): string {
  return value.replace(/[\\`*_[\]<>#|~]/g, (char) => `\\${char}`).replace(/\r?\n/g, ', ');
}

/**
 * Fills every {{placeholder}}; an unknown one stays as written, so a typo shows instead of vanishing.
 * `{{#name}}…{{/name}}` is kept only where the value is set and not 0, `{{^name}}…{{/name}}` only where
 * it is not (the guarantee's paragraphs where the seller offers none).
 */
export function fillTemplate(body: string, values: Record<string, string>): string {
  const sections = body.replace(
    /\{\{([#^])(\w+)\}\}\n?([\s\S]*?)\{\{\/\2\}\}\n?/g,
    (whole, kind: string, name: string, inner: string) => {
      if (!(name in values)) return whole;
      const set = values[name] !== '' && values[name] !== '0';
      return set === (kind === '#') ? inner : '';
    },
  );
  return sections.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) =>
    name in values ? escapeMarkdown(values[name] ?? '') : whole,
  );
}

export function settingsValues(settings: ShopSettings): Record<string, string> {
  return {
    shopName: settings.shopName,
    legalName: settings.legalName || settings.shopName,
    address: settings.address,
    supportEmail: settings.supportEmail,
    phone: settings.phone,
    taxNumber: settings.taxNumber,
    siteUrl: siteUrl(),
    moneyBackDays: String(settings.moneyBackDays),
  };
}

export interface RenderedLegalText {
  html: string;
  /** The filled Markdown: what a buyer agreed to, kept on their order. */
  markdown: string;
  /** A short fingerprint of the filled text, recorded with a buyer's consent. */
  version: string;
}

export async function renderLegalText(
  language: Language,
  page: LegalPage,
  order?: Partial<OrderValues>,
): Promise<RenderedLegalText> {
  const filled = await filledLegalText(language, page, order);
  return { html: renderPostContent(filled.markdown), ...filled };
}

/**
 * A legal text filled with the shop's settings (and the order's values), without its HTML: what an
 * order keeps and its consent names. A checkout needs no Markdown rendered or sanitised.
 */
export async function filledLegalText(
  language: Language,
  page: LegalPage,
  order?: Partial<OrderValues>,
): Promise<FilledLegalText> {
  const [{ body }, settings] = await Promise.all([legalText(language, page), shopSettings()]);
  if (order) return fill(body, settings, language, order);
  // Without an order's values a text is the same for every checkout until its settings or its words change.
  let known = filledForEveryone.get(settings);
  if (!known) filledForEveryone.set(settings, (known = new Map<string, { body: string; filled: FilledLegalText }>()));
  const key = `${language} ${page}`;
  const hit = known.get(key);
  if (hit?.body === body) return hit.filled;
  const filled = fill(body, settings, language);
  known.set(key, { body, filled });
  return filled;
}

type FilledLegalText = Omit<RenderedLegalText, 'html'>;

/** Texts filled without an order, by the settings they were filled with (a new read of the settings is a new object). */
const filledForEveryone = new WeakMap<ShopSettings, Map<string, { body: string; filled: FilledLegalText }>>();

function fill(body: string, settings: ShopSettings, language: Language, order?: Partial<OrderValues>): FilledLegalText {
  const values = { ...settingsValues(settings), paymentProviders: paymentProvidersText(language) };
  const markdown = fillTemplate(body, { ...values, ...order });
  return { markdown, version: fingerprint(markdown) };
}

/**
 * The payment providers the texts name: those this shop has keys for ("Stripe and iyzico"), or, before
 * any is configured, the ones it can use ("Stripe or iyzico"). Never the demo.
 */
export function paymentProvidersText(language: Language): string {
  const real = PAYMENT_PROVIDERS.filter((provider) => !provider.developerTool);
  const configured = real.filter((provider) => provider.configured());
  const named = configured.length > 0 ? configured : real;
  const type = configured.length > 0 ? 'conjunction' : 'disjunction';
  const key = `${language} ${type}`;
  let list = listFormats.get(key);
  if (!list) listFormats.set(key, (list = new Intl.ListFormat(language, { type })));
  return list.format(named.map((provider) => provider.label));
}

// Made once per language and type: making one costs more than using it.
const listFormats = new Map<string, Intl.ListFormat>();

export function fingerprint(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 12);
}
