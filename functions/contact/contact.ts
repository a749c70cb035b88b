import { db } from '../db/database.ts';
import { shopSettings } from '../shop/settings.ts';
import { queueMail } from '../mail/outbox.ts';
import { renderMail } from '../mail/template.ts';
import { contactNotification } from '../mail/templates/index.ts';
import { DEFAULT_LANGUAGE } from '../../src/i18n/languages.ts';
import type { ContactMessage } from '../../src/lib/contact.schema.ts';
import type { Language } from '../../src/i18n/languages.ts';

/**
 * Stores a contact message and queues its e-mail to the shop, in one transaction: never lost. It goes
 * to the support address of the settings; until the seller sets one, to every admin.
 */
export async function saveContactMessage(message: ContactMessage, language: Language): Promise<{ id: string }> {
  const recipients = await shopRecipients();
  const mails = await Promise.all(
    recipients.map((to) =>
      renderMail(
        contactNotification,
        { name: message.name, email: message.email, subject: message.subject, message: message.message },
        // Replying answers the person who wrote.
        { to, language: DEFAULT_LANGUAGE, replyTo: message.email },
      ),
    ),
  );
  return db()
    .transaction()
    .execute(async (trx) => {
      const saved = await trx
        .insertInto('contact_messages')
        .values({ ...message, language })
        .returning('id')
        .executeTakeFirstOrThrow();
      for (const mail of mails) await queueMail(trx, mail);
      return saved;
    });
}

async function shopRecipients(): Promise<string[]> {
  const { supportEmail } = await shopSettings();
  if (supportEmail) return [supportEmail];
  const admins = await db()
    .selectFrom('users')
    .select('email')
    .where('role', '=', 'admin')
    .orderBy('created_at')
    .limit(5)
    .execute();
  return admins.map((admin) => admin.email);
}
