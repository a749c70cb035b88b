import { z } from './zod.ts';
import en from '../../content/pages/en/contact.json' with { type: 'json' };
import tr from '../../content/pages/tr/contact.json' with { type: 'json' };
import type { Language } from '../i18n/languages.ts';

/** The contact page's wording (hours, questions); the shop's addresses come from its settings. */
const ContactInfoSchema = z.object({
  info: z.object({ hours: z.string().min(1) }),
  faq: z.array(z.object({ question: z.string().min(1), answer: z.string().min(1) })).min(1),
});

export type ContactInfo = z.infer<typeof ContactInfoSchema>;

const CONTACT_INFO: Record<Language, ContactInfo> = { en: ContactInfoSchema.parse(en), tr: ContactInfoSchema.parse(tr) };

export function contactInfo(lang: Language): ContactInfo {
  return CONTACT_INFO[lang];
}
