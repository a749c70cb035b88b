import { sql } from 'kysely';
import { db, type Db } from '../db/database.ts';
import { announceChange } from '../http/cache-notify.ts';
import { CATALOGUE_TAG } from '../http/cache-rules.ts';
import { log } from '../log.ts';
import { providerForCurrency } from '../payments/registry.ts';
import type { PaymentProvider } from '../payments/provider.ts';
import { PaymentChoicesSchema, type PaymentChoices } from '../../src/lib/admin/payment-choices.schema.ts';

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

/** Saves the seller's choices (already checked by the schema); course pages say again whether they are for sale. */
export async function savePaymentChoices(choices: PaymentChoices, database: Db = db()): Promise<void> {
  await database.transaction().execute(async (trx) => {
    await trx
      .insertInto('payment_choices')
      .values({ id: true, choices: JSON.stringify(choices), updated_at: new Date() })
      .onConflict((conflict) =>
        conflict.column('id').doUpdateSet({ choices: sql`excluded.choices`, updated_at: sql`excluded.updated_at` }),
      )
      .execute();
    await announceChange(trx, CATALOGUE_TAG);
  });
}

/** The provider that takes a currency here: the seller's choice when it is configured, else the first configured one. */
export async function providerTakingCurrency(currency: string): Promise<PaymentProvider | undefined> {
  return providerForCurrency(currency, await readPaymentChoices());
}
