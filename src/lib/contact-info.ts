import { z } from './zod.ts';
import en from '../../content/pages/en/contact.json' with { type: 'json' };
import tr from '../../content/pages/tr/contact.json' with { type: 'json' };
import type { Language } from '../i18n/languages.ts';

const ContactInfoSchema = z.object({
  info: z.object({ supportEmail: z.email(), generalEmail: z.email(), phone: z.string(), address: z.string(), hours: z.string() }),
  faq: z.array(z.object({ question: z.string().min(1), answer: z.string().min(1) })).min(1),
});

export type ContactInfo = z.infer<typeof ContactInfoSchema>;

const CONTACT_INFO: Record<Language, ContactInfo> = { en: ContactInfoSchema.parse(en), tr: ContactInfoSchema.parse(tr) };

export function contactInfo(lang: Language): ContactInfo {
  return CONTACT_INFO[lang];
}
