import { db } from '../db/database.ts';
import { env } from '../env.ts';
import { queueMail } from '../mail/outbox.ts';
import { contactNotificationMail } from '../mail/templates.ts';
import type { ContactMessage } from '../../src/lib/contact.schema.ts';
import type { Language } from '../../src/i18n/languages.ts';

/** Stores a contact message and queues its e-mail to the shop, in one transaction: never lost. */
export async function saveContactMessage(message: ContactMessage, language: Language): Promise<{ id: string }> {
  return db()
    .transaction()
    .execute(async (trx) => {
      const saved = await trx
        .insertInto('contact_messages')
        .values({ ...message, language })
        .returning('id')
        .executeTakeFirstOrThrow();
      await queueMail(
        trx,
        contactNotificationMail({
          to: env().SHOP_EMAIL,
          from: message.email,
          name: message.name,
          subject: message.subject,
          message: message.message,
        }),
      );
      return saved;
    });
}
