import type { ReactNode } from 'react';
import { plainTextSelectors, render } from '@react-email/render';
import { compile } from 'html-to-text';
import type { TFunction } from 'i18next';
import { getT } from '../../src/i18n/i18n.ts';
import type { Language } from '../../src/i18n/languages.ts';
import { shopIdentity, type ShopIdentity } from '../shop/identity.ts';
import type { Db } from '../db/database.ts';
import { h, Layout } from './kit.ts';
import { queueMails, type Mail, type MailRenderedWhenSent } from './outbox.ts';
import type { Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { LinkToken } from '../auth/link-tokens.ts';

/** What a template is rendered with besides its own data. */
export interface MailContext {
  language: Language;
  t: TFunction;
  shop: ShopIdentity;
}

/**
 * One e-mail of the shop: its subject, inbox preheader, body and footer reason from one source, in
 * the recipient's language. Adding one: a file under templates/, listed in templates/index.ts (the
 * preview gallery and the width tests then cover it).
 */
export interface MailTemplate<Props> {
  kind: string;
  /** Not strictly transactional (course update notices): it carries List-Unsubscribe, and an account may turn it off. */
  optional?: true;
  /** The footer's link to the reader's preferences page (optional mail): course update mails say "Stop course update e-mails". */
  unsubscribeLabel?: (context: MailContext) => string;
  subject: (props: Props, context: MailContext) => string;
  preheader: (props: Props, context: MailContext) => string;
  reason: (props: Props, context: MailContext) => string;
  body: (props: Props, context: MailContext) => ReactNode;
  /** Believable data, for the preview gallery and the tests. */
  sample: (language: Language) => Props;
}

export function defineTemplate<Props>(template: MailTemplate<Props>): MailTemplate<Props> {
  return template;
}

export interface Delivery {
  to: string;
  language: Language;
  /** Where a reply goes: the shop's support address unless given (the contact form: the person who wrote). */
  replyTo?: string;
  /** Required for an optional template: the reader's one-click unsubscribe address and its page. */
  unsubscribe?: { oneClickUrl: string; pageUrl: string };
}

/**
 * A mail's plain-text part from its HTML, as react-email's toPlainText converts it, compiled once:
 * toPlainText compiles its selectors again for every mail (0.7 ms of the 1.4 ms it took).
 */
const toPlainText = compile({ wordwrap: false, selectors: plainTextSelectors });

/** Renders a template into a mail ready for the outbox: HTML and plain text from the same tree. */
export async function renderMail<Props>(
  template: MailTemplate<Props>,
  props: Props,
  delivery: Delivery,
  /** The transaction the mail is queued in, if any (see shopIdentity). */
  database?: Db,
): Promise<Mail> {
  const context = await mailContext(delivery.language, database);
  const { envelope, element } = compose(template, props, delivery, context);
  // The text from the HTML: React renders the tree once (render's plainText option renders it again).
  const html = await render(element);
  return { ...envelope, html, text: toPlainText(html) };
}

/**
 * Queues a mail whose rendering can wait: its subject and sender now, its HTML and text by the outbox
 * worker as it sends it (from the same template, props and delivery, so the same mail), so the
 * request that caused it (a payment) does not wait for React and the plain-text conversion.
 */
export async function queueMailToRender<Props>(
  database: Transaction<Database>,
  template: MailTemplate<Props>,
  props: Props,
  delivery: Delivery,
  link?: LinkToken,
): Promise<void> {
  await queueMailsToRender(database, template, [{ props, delivery, ...(link ? { link } : {}) }]);
}

/** One mail of many to render when sent (queueMailsToRender). */
export interface MailToRender<Props> {
  props: Props;
  delivery: Delivery;
  link?: LinkToken;
}

/**
 * Queues many mails of one template as `queueMailToRender` queues one, with one read of the shop's
 * identity and a few inserts (an import's thousands of mails took a round trip each, twice).
 */
export async function queueMailsToRender<Props>(
  database: Transaction<Database>,
  template: MailTemplate<Props>,
  mails: MailToRender<Props>[],
): Promise<void> {
  const shop = await shopIdentity(database);
  const contexts = new Map<Language, MailContext>();
  const contextIn = (language: Language) =>
    contexts.get(language) ?? contexts.set(language, { language, t: getT(language), shop }).get(language)!;
  await queueMails(
    database,
    mails.map((mail) => toRender(template, mail, contextIn(mail.delivery.language))),
  );
}

/**
 * A mail to render when sent, as `queueMailToRender` queues it, for a caller that queues it in a
 * statement of its own (numbering.ts issueReceipt: the receipt's number and its mail together).
 */
export async function mailToRender<Props>(
  database: Db,
  template: MailTemplate<Props>,
  mail: MailToRender<Props>,
): Promise<MailRenderedWhenSent> {
  return toRender(template, mail, await mailContext(mail.delivery.language, database));
}

function toRender<Props>(
  template: MailTemplate<Props>,
  { props, delivery, link }: MailToRender<Props>,
  context: MailContext,
): MailRenderedWhenSent {
  return {
    ...envelopeOf(template, props, delivery, context),
    html: '',
    text: '',
    ...(link ? { link } : {}),
    renderWith: { props, delivery: { ...delivery } },
  };
}

async function mailContext(language: Language, database?: Db): Promise<MailContext> {
  return { language, t: getT(language), shop: await shopIdentity(database) };
}

function compose<Props>(template: MailTemplate<Props>, props: Props, delivery: Delivery, context: MailContext) {
  const envelope = envelopeOf(template, props, delivery, context);
  const element = h(Layout, {
    language: delivery.language,
    title: envelope.subject,
    preheader: template.preheader(props, context),
    shop: context.shop,
    reason: template.reason(props, context),
    footerLinks: delivery.unsubscribe
      ? [{ label: template.unsubscribeLabel?.(context) ?? context.t('mail.unsubscribe'), url: delivery.unsubscribe.pageUrl }]
      : [],
    children: template.body(props, context),
  });
  return { envelope, element };
}

/** What the outbox keeps of a mail before it is rendered: its sender, recipient and subject. */
function envelopeOf<Props>(
  template: MailTemplate<Props>,
  props: Props,
  delivery: Delivery,
  context: MailContext,
): Omit<Mail, 'html' | 'text'> {
  if (template.optional && !delivery.unsubscribe) throw new Error(`${template.kind} mail needs an unsubscribe address`);
  const replyTo = delivery.replyTo ?? context.shop.supportEmail;
  return {
    kind: template.kind,
    to: delivery.to,
    language: delivery.language,
    subject: template.subject(props, context),
    fromName: context.shop.name,
    ...(replyTo ? { replyTo } : {}),
    ...(delivery.unsubscribe ? { listUnsubscribe: delivery.unsubscribe.oneClickUrl } : {}),
  };
}
