import type { AstroGlobal } from 'astro';
import { POST as resendRoute } from '../pages/api/account/gifts/[id]/resend.ts';
import { apiAnswer } from '../lib/api-client.ts';
import { GiftResendSchema } from '../lib/gift.schema.ts';
import type { MessageKey } from '../i18n/i18n.ts';
import { localizedPath, type Language } from '../i18n/languages.ts';
import { callEndpoint, readFormPost, seeOther } from './form-post.ts';

/**
 * The dashboard's gift forms ("Send now", "Send again"): plain forms posted to the page, sent
 * through the island-less endpoint in-process (decision 34). Answered with the dashboard saying it
 * was sent (303), or with the refusal to show beside the list.
 */
export async function giftResendPosted(
  page: AstroGlobal,
  lang: Language,
): Promise<Response | { problem: MessageKey; status: number } | undefined> {
  const read = await readFormPost(page.request);
  if ('response' in read) return read.response;
  if (read.fields.form !== 'gift-resend') return undefined;
  const gift = GiftResendSchema.safeParse({ id: read.fields.gift });
  if (!gift.success) return { problem: 'errors.notFound', status: 404 };
  const path = `/api/account/gifts/${gift.data.id}/resend`;
  const answer = await apiAnswer(await callEndpoint(resendRoute, page, path, {}, { params: { id: gift.data.id } }));
  if (answer.ok) return seeOther(`${localizedPath(lang, '/dashboard')}?giftSent#gifts`);
  return { problem: answer.message, status: answer.status };
}
