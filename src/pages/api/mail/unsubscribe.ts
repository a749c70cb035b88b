import type { APIRoute } from 'astro';
import { z } from '../../../lib/zod.ts';
import { accountOfToken, setCourseUpdates } from '../../../../functions/mail/preferences.ts';
import { asLanguage, localizedPath } from '../../../i18n/languages.ts';
import { errorResponse, readText } from '../../../lib/http.ts';

export const prerender = false;

const MAX_BODY_BYTES = 2048;
const PageForm = z.object({ token: z.string().max(200), choice: z.enum(['stop', 'resume']), lang: z.string().max(5) });

/**
 * Course update e-mails off (or back on), by a link signed for the account. Mail clients POST here
 * with `List-Unsubscribe=One-Click` and the token in the address (RFC 8058): answered at once. The
 * unsubscribe page posts its form here and is shown again with the outcome.
 */
export const POST: APIRoute = async ({ request, url }) => {
  const read = await readText(request, MAX_BODY_BYTES);
  if ('response' in read) return read.response;
  const body = new URLSearchParams(read.text);
  if (body.get('List-Unsubscribe') === 'One-Click') {
    const userId = accountOfToken(url.searchParams.get('token') ?? '');
    if (!userId || !(await setCourseUpdates(userId, false))) return errorResponse(404, 'not_found', 'errors.notFound');
    return new Response('Unsubscribed from course update e-mails.', { headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
  }
  const form = PageForm.safeParse(Object.fromEntries(body));
  if (!form.success) return errorResponse(400, 'invalid_input', 'errors.badRequest');
  const lang = asLanguage(form.data.lang);
  const userId = accountOfToken(form.data.token);
  const changed = userId !== undefined && (await setCourseUpdates(userId, form.data.choice === 'resume'));
  const page = `${localizedPath(lang, '/unsubscribe')}?token=${encodeURIComponent(form.data.token)}${changed ? `&done=${form.data.choice}` : ''}`;
  return new Response(null, { status: 303, headers: { Location: page } });
};
