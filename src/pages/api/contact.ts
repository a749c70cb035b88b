import type { APIRoute } from 'astro';
import { saveContactMessage } from '../../../functions/contact/contact.ts';
import { ContactMessageSchema } from '../../lib/contact.schema.ts';
import { noStoreJson, readJson, tooManyRequests } from '../../lib/http.ts';
import { clientIp } from '../../server/client-ip.ts';
import { consumeAll, LIMITS, targetKey } from '../../../functions/limits/limits.ts';
import { LanguageSchema } from '../../lib/validation.ts';
import { DEFAULT_LANGUAGE } from '../../i18n/languages.ts';

export const prerender = false;

const ContactRequestSchema = ContactMessageSchema.extend({ language: LanguageSchema.catch(DEFAULT_LANGUAGE) });

export const POST: APIRoute = async ({ request, clientAddress }) => {
  const body = await readJson(request, ContactRequestSchema);
  if ('response' in body) return body.response;
  // Each message is mailed to the shop: one client or one sender cannot flood its inbox.
  const verdict = await consumeAll([
    [LIMITS.contactPerClient, clientIp(request, clientAddress)],
    [LIMITS.contactPerAddress, targetKey(body.data.email)],
  ]);
  if (!verdict.allowed) return tooManyRequests(verdict.retryAfterS);
  const { language, ...message } = body.data;
  const saved = await saveContactMessage(message, language);
  return noStoreJson({ id: saved.id }, 201);
};
