import { db } from '../db/database.ts';
import { env } from '../env.ts';
import { queueMail } from '../mail/outbox.ts';
import { renderMail } from '../mail/template.ts';
import { contactNotification } from '../mail/templates/index.ts';
import { DEFAULT_LANGUAGE } from '../../src/i18n/languages.ts';
import type { ContactMessage } from '../../src/lib/contact.schema.ts';
import type { Language } from '../../src/i18n/languages.ts';

/** Stores a contact message and queues its e-mail to the shop, in one transaction: never lost. */
export async function saveContactMessage(message: ContactMessage, language: Language): Promise<{ id: string }> {
  const mail = await renderMail(
    contactNotification,
    { name: message.name, email: message.email, subject: message.subject, message: message.message },
    // Replying answers the person who wrote.
    { to: env().SHOP_EMAIL, language: DEFAULT_LANGUAGE, replyTo: message.email },
  );
  return db()
    .transaction()
    .execute(async (trx) => {
      const saved = await trx
        .insertInto('contact_messages')
        .values({ ...message, language })
        .returning('id')
        .executeTakeFirstOrThrow();
      await queueMail(trx, mail);
      return saved;
    });
}
