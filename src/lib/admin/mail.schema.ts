import { z } from '../zod.ts';
import { LanguageSchema, text } from '../validation.ts';
import { UUID_PATTERN } from '../uuid.ts';
import { LANGUAGES, type Language } from '../../i18n/languages.ts';
import { TOPICS } from '../audience.schema.ts';

/** Admin → Mail: broadcasts and automatic mails. Shared by the page's forms and the endpoints they post to. */
export const SUBJECT_MAX = 200;
export const BODY_MAX = 50_000;

export const SEGMENTS = ['all', 'buyers', 'never-bought'] as const;
export type Segment = (typeof SEGMENTS)[number];
export const BROADCAST_STATUSES = ['draft', 'scheduled', 'sending', 'paused', 'sent', 'cancelled'] as const;
export type BroadcastStatus = (typeof BROADCAST_STATUSES)[number];

const subject = text('admin.mail.subjectRequired')
  .trim()
  .min(1, 'admin.mail.subjectRequired')
  .max(SUBJECT_MAX, 'validation.tooLong');
const body = text('admin.mail.bodyRequired').trim().min(1, 'admin.mail.bodyRequired').max(BODY_MAX, 'validation.tooLong');

/** A broadcast as the endpoints take it (a draft saved, or changed while it is a draft or scheduled). */
export const BroadcastSchema = z
  .object({
    subject,
    body,
    language: LanguageSchema,
    segment: z.enum(SEGMENTS, 'errors.badRequest'),
    courseIds: z.array(z.string().regex(UUID_PATTERN, 'errors.badRequest'), 'errors.badRequest').max(200, 'validation.tooLong'),
    /** Only subscribers who want mail in this language; `any`: whatever they chose. */
    audienceLanguage: z.enum(['any', ...LANGUAGES], 'errors.badRequest'),
    /** What it is about: only subscribers who kept this topic on their preferences page get it. */
    topic: z.enum(TOPICS, 'admin.mail.topicRequired'),
  })
  .refine((broadcast) => broadcast.segment !== 'buyers' || broadcast.courseIds.length > 0, {
    path: ['courseIds'],
    message: 'admin.mail.coursesRequired',
  });
export type BroadcastInput = z.infer<typeof BroadcastSchema>;

/** The composer's fields as the browser posts them: a checkbox per course (`course-<id>`). */
export function broadcastFromForm(fields: Record<string, string>): Record<string, unknown> {
  return {
    subject: fields.subject ?? '',
    body: fields.body ?? '',
    language: fields.language,
    segment: fields.segment,
    audienceLanguage: fields.audienceLanguage ?? 'any',
    topic: fields.topic,
    courseIds: Object.keys(fields)
      .filter((name) => name.startsWith('course-'))
      .map((name) => name.slice('course-'.length)),
  };
}

/** Send now (no `at`) or at a moment (an ISO instant), which must be in the future. */
export const SendSchema = z.object({ at: z.iso.datetime({ offset: true, error: 'admin.mail.sendAtInvalid' }).optional() });

/** The composer's "send at" field: a `datetime-local` value, read as UTC (the page says so). */
export function sendAtFromForm(value: string | undefined): string | undefined {
  if (!value?.trim()) return undefined;
  const date = new Date(`${value.trim()}Z`);
  return Number.isNaN(date.getTime()) ? 'invalid' : date.toISOString();
}

export const BroadcastActionSchema = z.object({ action: z.enum(['pause', 'resume', 'cancel'], 'errors.badRequest') });
export type BroadcastAction = z.infer<typeof BroadcastActionSchema>['action'];

/** What each broadcast's row shows. */
export interface BroadcastCounts {
  /** Recipients not handed to the outbox yet. */
  waiting: number;
  /** In the outbox, not sent yet. */
  queued: number;
  sent: number;
  /** Refused by SMTP several times (still retried; the overview's "failing" mail). */
  failed: number;
  /** Not sent: the subscriber had left before their mail's turn (or before it left the outbox). */
  withdrawn: number;
  /** Sent, then the subscriber unsubscribed. */
  unsubscribedAfter: number;
}

export interface BroadcastView extends Omit<BroadcastInput, 'courseIds'> {
  id: string;
  courseIds: string[];
  status: BroadcastStatus;
  sendAt: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  counts: BroadcastCounts;
}

/** The automatic mails: each on or off, its subject and Markdown per language ('' keeps the locale's default). */
export const AUTOMATIC_MAILS = ['welcome', 'review-request', 'checkout-reminder'] as const;
export type AutomaticMail = (typeof AUTOMATIC_MAILS)[number];

const Texts = z.object({
  subject: text('errors.badRequest').trim().max(SUBJECT_MAX, 'validation.tooLong'),
  body: text('errors.badRequest').trim().max(BODY_MAX, 'validation.tooLong'),
});
export type MailTexts = z.infer<typeof Texts>;

const Automation = z.object({
  enabled: z.boolean('errors.badRequest'),
  texts: z.object(Object.fromEntries(LANGUAGES.map((language) => [language, Texts])) as Record<Language, typeof Texts>),
});

/** Whole numbers typed in a form arrive as text. */
const wholeNumber = (min: number, max: number, message: string) =>
  z.preprocess(
    (value) => (typeof value === 'string' ? (value.trim() === '' ? undefined : Number(value.trim())) : value),
    z.number(message).int(message).min(min, message).max(max, message),
  );

export const RATE_MAX = 100_000;
export const AudienceSettingsSchema = z.object({
  /** Broadcast mails handed to the outbox per minute, across every instance. */
  ratePerMinute: wholeNumber(1, RATE_MAX, 'admin.mail.rateInvalid'),
  /** The review request goes this many days after a purchase. */
  reviewAfterDays: wholeNumber(1, 90, 'admin.mail.daysInvalid'),
  automatic: z.object(
    Object.fromEntries(AUTOMATIC_MAILS.map((kind) => [kind, Automation])) as Record<AutomaticMail, typeof Automation>,
  ),
});
export type AudienceSettings = z.infer<typeof AudienceSettingsSchema>;

/** One automatic mail's form, as the browser posts it: `enabled` (a checkbox), `subject-en`, `body-en`, … */
export function automationFromForm(fields: Record<string, string>): z.input<typeof Automation> {
  return {
    enabled: fields.enabled === 'on',
    texts: Object.fromEntries(
      LANGUAGES.map((language) => [
        language,
        { subject: fields[`subject-${language}`] ?? '', body: fields[`body-${language}`] ?? '' },
      ]),
    ) as Record<Language, MailTexts>,
  };
}
