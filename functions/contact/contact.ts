import { db } from '../db/database.ts';
import type { ContactMessage } from '../../src/lib/contact.schema.ts';
import type { Language } from '../../src/i18n/languages.ts';

/** Stores a validated contact message; it is never lost, whatever happens to mail. */
export async function saveContactMessage(message: ContactMessage, language: Language): Promise<{ id: string }> {
  return db().insertInto('contact_messages').values({ ...message, language }).returning('id').executeTakeFirstOrThrow();
}
