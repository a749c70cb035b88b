import { renderMail, type Delivery, type MailTemplate } from '../template.ts';
import type { Mail } from '../outbox.ts';
import type { Language } from '../../../src/i18n/languages.ts';
import type { Db } from '../../db/database.ts';
import { contactNotification } from './contact-notification.ts';
import { courseMaterials } from './course-materials.ts';
import { courseUpdate } from './course-update.ts';
import { emailVerification } from './email-verification.ts';
import { importedCourses } from './imported-courses.ts';
import { passwordReset } from './password-reset.ts';
import { refundNotice } from './refund-notice.ts';
import { securityNotice } from './security-notice.ts';
import { signInLink } from './sign-in-link.ts';
import { subscriptionConfirm } from './subscription-confirm.ts';
import { subscriptionWelcome } from './subscription-welcome.ts';
import { broadcast } from './broadcast.ts';
import { checkoutReminder } from './checkout-reminder.ts';
import { reviewRequest } from './review-request.ts';
import { giftMail } from './gift.ts';
import { giftReceipt } from './gift-receipt.ts';

export interface MailSample {
  kind: string;
  optional: boolean;
  /** The template rendered with its sample data, to a sample reader. */
  render: (language: Language) => Promise<Mail>;
}

const sampleOf = <Props>(template: MailTemplate<Props>): MailSample => ({
  kind: template.kind,
  optional: template.optional === true,
  render: (language) => renderMail(template, template.sample(language), sampleDelivery(language, template.optional === true)),
});

function sampleDelivery(language: Language, optional: boolean): Delivery {
  const unsubscribe = {
    oneClickUrl: 'https://shop.example/api/mail/unsubscribe?token=sample',
    pageUrl: `https://shop.example/${language}/unsubscribe?token=sample`,
  };
  return { to: 'reader@example.com', language, ...(optional ? { unsubscribe } : {}) };
}

/** Every e-mail the shop sends: the preview gallery and the tests go through this list. */
export const MAIL_SAMPLES: MailSample[] = [
  sampleOf(courseMaterials),
  sampleOf(passwordReset),
  sampleOf(signInLink),
  sampleOf(emailVerification),
  sampleOf(refundNotice),
  sampleOf(contactNotification),
  sampleOf(courseUpdate),
  sampleOf(securityNotice),
  sampleOf(subscriptionConfirm),
  sampleOf(subscriptionWelcome),
  sampleOf(importedCourses),
  sampleOf(broadcast),
  sampleOf(reviewRequest),
  sampleOf(checkoutReminder),
  sampleOf(giftMail),
  sampleOf(giftReceipt),
];

/** Renders a queued mail from the props and delivery its row keeps (our own JSON, written by queueMailToRender). */
export type QueuedRenderer = (props: unknown, delivery: Delivery, database: Db) => Promise<Mail>;

const rendererOf =
  <Props>(template: MailTemplate<Props>): QueuedRenderer =>
  (props, delivery, database) =>
    renderMail(template, props as Props, delivery, database);

/** Every template by its kind: the outbox worker renders a mail queued to be rendered when sent. */
export const MAIL_RENDERERS: ReadonlyMap<string, QueuedRenderer> = new Map([
  [courseMaterials.kind, rendererOf(courseMaterials)],
  [passwordReset.kind, rendererOf(passwordReset)],
  [signInLink.kind, rendererOf(signInLink)],
  [emailVerification.kind, rendererOf(emailVerification)],
  [refundNotice.kind, rendererOf(refundNotice)],
  [contactNotification.kind, rendererOf(contactNotification)],
  [courseUpdate.kind, rendererOf(courseUpdate)],
  [securityNotice.kind, rendererOf(securityNotice)],
  [importedCourses.kind, rendererOf(importedCourses)],
  [giftMail.kind, rendererOf(giftMail)],
  [giftReceipt.kind, rendererOf(giftReceipt)],
]);

export {
  contactNotification,
  giftMail,
  giftReceipt,
  courseMaterials,
  courseUpdate,
  emailVerification,
  importedCourses,
  passwordReset,
  refundNotice,
  securityNotice,
  signInLink,
  subscriptionConfirm,
  subscriptionWelcome,
  broadcast,
  reviewRequest,
  checkoutReminder,
};
