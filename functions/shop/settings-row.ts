import { sql, type Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';

/** The one-row settings tables: each keeps one JSON document (checked by its form's schema) under `id = true`. */
export type SettingsTable = 'shop_settings' | 'currency_settings' | 'tax_settings' | 'audience_settings';

/** Writes a settings table's document in the caller's transaction, replacing what was there. */
export async function writeSettingsRow(trx: Transaction<Database>, table: SettingsTable, settings: unknown): Promise<void> {
  await trx
    .insertInto(table)
    .values({ id: true, settings: JSON.stringify(settings), updated_at: new Date() })
    .onConflict((conflict) =>
      conflict.column('id').doUpdateSet({ settings: sql`excluded.settings`, updated_at: sql`excluded.updated_at` }),
    )
    .execute();
}
