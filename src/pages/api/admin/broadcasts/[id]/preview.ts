import { previewBroadcast } from '../../../../../../functions/audience/broadcasts.ts';
import { failureResponse } from '../../../../../lib/http.ts';
import { adminEndpoint } from '../../../../../server/admin-endpoint.ts';
import { mailHtmlResponse } from '../../../../../server/mail-preview.ts';

export const prerender = false;

/** The broadcast rendered through the e-mail kit, for Admin → Mail's frames (`?part=text`: its plain-text part). */
export const GET = adminEndpoint(async ({ params, url }) => {
  const preview = await previewBroadcast(params.id ?? '');
  if (!preview.ok) return failureResponse(preview);
  const text = url.searchParams.get('part') === 'text';
  return mailHtmlResponse(text ? preview.value.text : preview.value.html, { text, framed: true });
});
