import { z } from './zod.ts';
import { EmailSchema, LanguageSchema } from './validation.ts';
import { safeNextPath } from './next-path.ts';
import { SearchText } from './admin/search-text.ts';
import { LANGUAGES, type Language } from '../i18n/languages.ts';
import type { MessageKey } from '../i18n/i18n.ts';

/** What a subscriber may hear about (the preferences page's topics). */
export const TOPICS = ['courses', 'articles'] as const;
export type Topic = (typeof TOPICS)[number];

/** The shop's sign-up forms: where a consent was given, as the consent record names it. */
export const FORM_SOURCES = ['footer', 'blog', 'course', 'subscribe-page'] as const;
export type FormSource = (typeof FORM_SOURCES)[number];
/** Every way in or out of the list: the forms, the checkout box, the preferences page, one-click unsubscribes and Admin → Import. */
export type ConsentSource = FormSource | 'checkout' | 'preferences' | 'one-click' | 'import';

/** Each source's name in the admin list. */
export const SOURCE_LABELS = {
  footer: 'audience.source.footer',
  blog: 'audience.source.blog',
  course: 'audience.source.course',
  'subscribe-page': 'audience.source.subscribePage',
  checkout: 'audience.source.checkout',
  preferences: 'audience.source.preferences',
  'one-click': 'audience.source.oneClick',
  import: 'audience.source.import',
} as const satisfies Record<ConsentSource, MessageKey>;

export const SUBSCRIBER_STATUSES = ['pending', 'active', 'unsubscribed'] as const;
export type SubscriberStatus = (typeof SUBSCRIBER_STATUSES)[number];

const PAGE_MAX = 500;
/** The page a form was on, as a path of this site (anything else is recorded as the subscribe page). */
const PagePath = z
  .string()
  .max(PAGE_MAX)
  .transform((page) => safeNextPath(page, '/subscribe'))
  .catch('/subscribe');

/** A sign-up form's fields as the browser posts them. */
export const SubscribeFormSchema = z.object({
  email: EmailSchema,
  source: z.enum(FORM_SOURCES).catch('subscribe-page'),
  page: PagePath,
});

/** The subscribe endpoint's body: the form's fields and the page's language (the confirmation mail's). */
export const SubscribeRequestSchema = SubscribeFormSchema.extend({ language: LanguageSchema });
export type SubscribeRequest = z.infer<typeof SubscribeRequestSchema>;

/** The preferences form: one checkbox per language and topic (`language-en`, `topic-courses`), or leaving altogether. */
export const PreferencesFormSchema = z
  .object({
    token: z.string().max(300),
    choice: z.enum(['save', 'leave', 'rejoin']).catch('save'),
    ...Object.fromEntries(LANGUAGES.map((code) => [`language-${code}`, z.string().max(10).optional()])),
    ...Object.fromEntries(TOPICS.map((topic) => [`topic-${topic}`, z.string().max(10).optional()])),
  })
  .transform((form) => {
    const fields = form as Record<string, string | undefined>;
    return {
      token: form.token,
      choice: form.choice,
      languages: LANGUAGES.filter((code) => fields[`language-${code}`] !== undefined),
      topics: TOPICS.filter((topic) => fields[`topic-${topic}`] !== undefined),
    };
  });
export type PreferencesForm = z.output<typeof PreferencesFormSchema>;

/** The admin list's query: a search in the address, a status, a page. */
export const SubscriberListQuerySchema = z.object({
  q: SearchText.catch(''),
  status: z.enum(SUBSCRIBER_STATUSES).optional().catch(undefined),
  page: z.coerce.number().int().min(1).max(10_000).catch(1),
});
export type SubscriberListQuery = z.output<typeof SubscriberListQuerySchema>;

/** One subscriber as the admin list shows it. */
export interface AdminSubscriber {
  id: string;
  email: string;
  status: SubscriberStatus;
  languages: Language[];
  topics: Topic[];
  /** The form the newest consent came from. */
  source: ConsentSource;
  createdAt: string;
  confirmedAt: string | null;
  unsubscribedAt: string | null;
}

export interface AdminSubscriberPage {
  subscribers: AdminSubscriber[];
  total: number;
  page: number;
  pageCount: number;
  counts: Record<SubscriberStatus, number>;
}
