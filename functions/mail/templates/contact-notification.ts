import { h, Paragraph, Quote } from '../kit.ts';
import { defineTemplate } from '../template.ts';

/** A contact-form message, to the shop. Replying answers the person who wrote. */
export interface ContactNotificationProps {
  name: string;
  email: string;
  subject: string;
  message: string;
}

export const contactNotification = defineTemplate<ContactNotificationProps>({
  kind: 'contact',
  subject: (props, { t }) => t('mail.contactSubject', { subject: props.subject }),
  preheader: (props, { t }) => t('mail.contactPreheader', { name: props.name }),
  reason: (_props, { t }) => t('mail.reasonContact'),
  body: (props, { t }) => [
    h(Paragraph, { key: 'from' }, t('mail.contactFrom', { name: props.name, email: props.email })),
    h(Quote, { key: 'message' }, props.message),
    h(Paragraph, { key: 'reply', muted: true }, t('mail.contactReply')),
  ],
  sample: (language) => ({
    name: language === 'tr' ? 'Şule Işıklı' : 'Robin Lee',
    email: 'reader@example.com',
    subject: language === 'tr' ? 'Fatura hakkında' : 'About my invoice',
    message:
      language === 'tr'
        ? 'Merhaba,\nŞirketim için fatura alabilir miyim?\nTeşekkürler.'
        : 'Hello,\nCould I get an invoice for my company?\nThanks.',
  }),
});
