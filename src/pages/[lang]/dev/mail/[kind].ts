import type { APIRoute } from 'astro';
import { devToolsEnabled } from '../../../../../functions/dev-tools.ts';
import { MAIL_SAMPLES } from '../../../../../functions/mail/templates/index.ts';
import { asLanguage, isLanguage } from '../../../../i18n/languages.ts';

export const prerender = false;

// An e-mail styles itself inline, as mail clients require: its preview may, and may do nothing else.
const MAIL_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src https: data:; base-uri 'none'; form-action 'none'";

/** One e-mail, rendered with its sample data: `?language=tr`, `&part=text` for the plain-text part. */
export const GET: APIRoute = async ({ params, url }) => {
  const sample = MAIL_SAMPLES.find((candidate) => candidate.kind === params.kind);
  if (!devToolsEnabled() || !isLanguage(params.lang) || !sample) return new Response(null, { status: 404 });
  const language = asLanguage(url.searchParams.get('language') ?? params.lang);
  const mail = await sample.render(language);
  const text = url.searchParams.get('part') === 'text';
  return new Response(text ? mail.text : mail.html, {
    headers: {
      'Content-Type': text ? 'text/plain; charset=utf-8' : 'text/html; charset=utf-8',
      'Content-Security-Policy': MAIL_CSP,
      'Cache-Control': 'no-store',
    },
  });
};
