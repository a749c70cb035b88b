import type { APIRoute } from 'astro';
import { saveContactMessage } from '../../../functions/contact/contact.ts';
import { ContactMessageSchema } from '../../lib/contact.schema.ts';
import { readJson } from '../../lib/http.ts';
import { LanguageSchema } from '../../lib/validation.ts';
import { DEFAULT_LANGUAGE } from '../../i18n/languages.ts';

export const prerender = false;

const ContactRequestSchema = ContactMessageSchema.extend({ language: LanguageSchema.catch(DEFAULT_LANGUAGE) });

export const POST: APIRoute = async ({ request }) => {
  const body = await readJson(request, ContactRequestSchema);
  if ('response' in body) return body.response;
  const { language, ...message } = body.data;
  const saved = await saveContactMessage(message, language);
  return Response.json({ id: saved.id }, { status: 201, headers: { 'Cache-Control': 'no-store' } });
};
