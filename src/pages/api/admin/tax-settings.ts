import { saveTaxSettings, taxSettingsForAdmin } from '../../../../functions/taxes/settings.ts';
import { TaxSettingsSchema } from '../../../lib/admin/tax-settings.schema.ts';
import { noStoreJson, readJson } from '../../../lib/http.ts';
import { adminEndpoint } from '../../../server/admin-endpoint.ts';

export const prerender = false;

export const GET = adminEndpoint(async () => noStoreJson(await taxSettingsForAdmin()));

/** The seller's country, registrations, display mode, overrides and e-book courses; every cached page is purged. */
export const PUT = adminEndpoint(async ({ request }) => {
  const body = await readJson(request, TaxSettingsSchema);
  if ('response' in body) return body.response;
  await saveTaxSettings(body.data);
  return noStoreJson({ settings: body.data });
});
