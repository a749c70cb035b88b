import { getT } from '../../src/i18n/i18n.ts';
import type { Language } from '../../src/i18n/languages.ts';
import type { Mail } from './outbox.ts';

/** Every mail in the recipient's language, as HTML and plain text, from one list of paragraphs. */
interface Block {
  text: string;
  link?: { label: string; url: string };
}

export function renderMail(kind: string, to: string, language: Language, subject: string, blocks: Block[]): Mail {
  const t = getT(language);
  const html = `<!doctype html><html lang="${language}"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;background:#f3f4f6;font-family:system-ui,-apple-system,'Segoe UI',sans-serif;color:#111827">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:24px">
<table role="presentation" width="560" cellpadding="0" cellspacing="0" style="background:#fff;border-radius:12px;padding:32px">
<tr><td><p style="font-size:20px;font-weight:700;color:#4338ca;margin:0 0 24px">${escapeHtml(t('site.name'))}</p>
${blocks
  .map((block) =>
    block.link
      ? `<p style="margin:24px 0"><a href="${escapeHtml(block.link.url)}" style="background:#4f46e5;color:#fff;padding:12px 20px;border-radius:8px;text-decoration:none;font-weight:600">${escapeHtml(block.link.label)}</a></p>`
      : `<p style="line-height:1.6;margin:0 0 16px">${escapeHtml(block.text)}</p>`,
  )
  .join('\n')}
<p style="color:#6b7280;font-size:13px;margin-top:32px">${escapeHtml(t('site.tagline'))}</p></td></tr></table></td></tr></table></body></html>`;
  const text = [
    ...blocks.map((block) => (block.link ? `${block.link.label}: ${block.link.url}` : block.text)),
    '',
    `— ${t('site.name')}`,
  ].join('\n\n');
  return { kind, to, language, subject, html, text };
}

export function passwordResetMail({
  to,
  name,
  url,
  language,
}: {
  to: string;
  name: string;
  url: string;
  language: Language;
}): Mail {
  const t = getT(language);
  return renderMail('password-reset', to, language, t('mail.resetSubject'), [
    { text: t('mail.greeting', { name: name || to }) },
    { text: t('mail.resetIntro') },
    { text: '', link: { label: t('mail.resetButton'), url } },
    { text: t('mail.resetExpiry') },
    { text: t('mail.resetIgnore') },
  ]);
}

export function contactNotificationMail({
  to,
  from,
  name,
  subject,
  message,
}: {
  to: string;
  from: string;
  name: string;
  subject: string;
  message: string;
}): Mail {
  const t = getT('en');
  return renderMail('contact', to, 'en', t('mail.contactSubject', { subject }), [
    { text: t('mail.contactFrom', { name, email: from }) },
    { text: message },
  ]);
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
