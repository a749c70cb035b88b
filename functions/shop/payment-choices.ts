import { sql } from 'kysely';
import { db, type Db } from '../db/database.ts';
import { announceChange } from '../http/cache-notify.ts';
import { CATALOGUE_TAG, SHOP_TAG } from '../http/cache-rules.ts';
import { cachedRead, forgetSettings } from './settings-cache.ts';
import { log } from '../log.ts';
import { PAYMENT_PROVIDERS, providerForCurrency } from '../payments/registry.ts';
import type { PaymentProvider } from '../payments/provider.ts';
import { PaymentChoicesSchema, type PaymentChoices } from '../../src/lib/admin/payment-choices.schema.ts';
import { CURRENCIES } from '../../src/lib/course-filters.ts';
import type { FieldErrors } from '../../src/lib/validation.ts';

/** Until the seller chooses: the first configured provider takes every currency. */
export const NO_CHOICES: PaymentChoices = PaymentChoicesSchema.parse({});

export async function readPaymentChoices(database: Db = db()): Promise<PaymentChoices> {
  const row = await database.selectFrom('payment_choices').select('choices').executeTakeFirst();
  if (!row) return NO_CHOICES;
  const parsed = PaymentChoicesSchema.safeParse(row.choices);
  if (parsed.success) return parsed.data;
  log.error(
    { issues: parsed.error.issues.length },
    'payment choices in the database are not valid; the first configured provider takes every currency',
  );
  return NO_CHOICES;
}

/**
 * Saves the seller's choices (already checked by the schema; a provider's name must be one the shop
 * knows, configured here or not); course pages say again whether they are for sale.
 */
export async function savePaymentChoices(
  choices: PaymentChoices,
  database: Db = db(),
): Promise<{ ok: true } | { ok: false; fields: FieldErrors }> {
  const unknown = CURRENCIES.filter(
    (currency) => choices[currency] !== '' && !PAYMENT_PROVIDERS.some((provider) => provider.name === choices[currency]),
  );
  if (unknown.length > 0)
    return { ok: false, fields: Object.fromEntries(unknown.map((currency) => [currency, 'admin.payments.unknownProvider'])) };
  await database.transaction().execute(async (trx) => {
    await trx
      .insertInto('payment_choices')
      .values({ id: true, choices: JSON.stringify(choices), updated_at: new Date() })
      .onConflict((conflict) =>
        conflict.column('id').doUpdateSet({ choices: sql`excluded.choices`, updated_at: sql`excluded.updated_at` }),
      )
      .execute();
    // SHOP_TAG drops every instance's settings cache (settings-cache.ts) as well as the pages.
    await announceChange(trx, SHOP_TAG);
    await announceChange(trx, CATALOGUE_TAG);
  });
  forgetSettings();
  return { ok: true };
}

/** Admin → Settings → Payments: every provider the shop knows, whether its keys are set, and who takes each currency. */
export async function paymentSettings() {
  const choices = await readPaymentChoices();
  return {
    providers: PAYMENT_PROVIDERS.filter((provider) => !provider.developerTool).map((provider) => ({
      name: provider.name,
      label: provider.label,
      configured: provider.configured(),
    })),
    choices,
    takenBy: Object.fromEntries(CURRENCIES.map((currency) => [currency, providerForCurrency(currency, choices)?.label ?? ''])),
  };
}

/** The provider that takes a currency here: the seller's choice when it is configured, else the first configured one. */
export async function providerTakingCurrency(currency: string): Promise<PaymentProvider | undefined> {
  return providerForCurrency(currency, await cachedRead('payment-choices', readPaymentChoices));
}
