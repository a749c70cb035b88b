import type { APIRoute } from 'astro';
import { devToolsEnabled } from '../../../../../functions/dev-tools.ts';
import { MAIL_SAMPLES } from '../../../../../functions/mail/templates/index.ts';
import { asLanguage, isLanguage } from '../../../../i18n/languages.ts';
import { mailHtmlResponse } from '../../../../server/mail-preview.ts';

export const prerender = false;

/** One e-mail, rendered with its sample data: `?language=tr`, `&part=text` for the plain-text part. */
export const GET: APIRoute = async ({ params, url }) => {
  const sample = MAIL_SAMPLES.find((candidate) => candidate.kind === params.kind);
  if (!devToolsEnabled() || !isLanguage(params.lang) || !sample) return new Response(null, { status: 404 });
  const language = asLanguage(url.searchParams.get('language') ?? params.lang);
  const mail = await sample.render(language);
  const text = url.searchParams.get('part') === 'text';
  return mailHtmlResponse(text ? mail.text : mail.html, { text });
};
