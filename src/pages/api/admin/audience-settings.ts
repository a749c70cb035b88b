import { audienceSettings, saveAudienceSettings } from '../../../../functions/audience/settings.ts';
import { AudienceSettingsSchema } from '../../../lib/admin/mail.schema.ts';
import { noStoreJson, readJson } from '../../../lib/http.ts';
import { adminEndpoint } from '../../../server/admin-endpoint.ts';

export const prerender = false;

/** The sending rate and the automatic mails (each on or off, its words per language; '' keeps the default). */
export const GET = adminEndpoint(async () => noStoreJson({ settings: await audienceSettings() }));

export const PUT = adminEndpoint(async ({ request }) => {
  const body = await readJson(request, AudienceSettingsSchema);
  if ('response' in body) return body.response;
  return noStoreJson({ settings: await saveAudienceSettings(body.data) });
});
