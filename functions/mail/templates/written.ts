import type { MessageKey } from '../../../src/i18n/i18n.ts';
import { Button, h, Paragraph } from '../kit.ts';
import { markdownBody } from '../markdown.ts';
import { defineTemplate, type MailTemplate } from '../template.ts';

/**
 * A marketing mail whose words the seller writes (a broadcast, an automatic mail): subject and
 * Markdown as given (placeholders already filled), built with the e-mail kit, one-click unsubscribe
 * and the subscriber's preferences link in the footer like every marketing mail.
 */
export interface WrittenMailProps {
  subject: string;
  markdown: string;
  /** The mail's one call to action (the course page's review form, the checkout), when it has one. */
  buttonUrl?: string;
}

/** The inbox's line after the subject: the message's first words, without Markdown's marks. */
export function preheaderOf(markdown: string): string {
  const first = markdown.split('\n').find((line) => /\w/.test(line)) ?? '';
  const plain = first
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[#>*_`~]/g, '')
    .trim();
  return plain.length > 120 ? `${plain.slice(0, 119)}…` : plain;
}

export function writtenTemplate(
  kind: string,
  { button, closing, sample }: { button?: MessageKey; closing?: MessageKey; sample: MailTemplate<WrittenMailProps>['sample'] },
): MailTemplate<WrittenMailProps> {
  return defineTemplate<WrittenMailProps>({
    kind,
    optional: true,
    unsubscribeLabel: ({ t }) => t('mail.subscriberPreferences'),
    subject: (props) => props.subject,
    preheader: (props) => preheaderOf(props.markdown),
    reason: (_props, { t, shop }) => t('mail.reasonSubscriber', { shop: shop.name }),
    body: (props, { t }) => [
      ...markdownBody(props.markdown),
      ...(button && props.buttonUrl ? [h(Button, { key: 'button', url: props.buttonUrl }, t(button))] : []),
      ...(closing ? [h(Paragraph, { key: 'closing', muted: true }, t(closing))] : []),
    ],
    sample,
  });
}
